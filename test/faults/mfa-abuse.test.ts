// MFA abuse limits (lib/bank/limits.ts) and no secret at rest. Handlers
// are invoked in this process (real DynamoDB Local) so the security events they log can be read.
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as issueToken } from '../../functions/bank/create-mfa-token.ts';
import { handler as startHandler } from '../../functions/bank/start-verification.ts';
import { handler as verifyHandler } from '../../functions/bank/verify.ts';
import { MFA_LIMITS } from '../../lib/bank/limits.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/http/logger.ts';
import { invoke } from '../support/events.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { enroll, outboxCode } from '../bank/helpers.ts';

const start = (u: TestUser, deviceId: string) =>
  invoke(startHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/verifications',
    pathParameters: { userId: u.id },
    token: u.token,
    body: { device_id: deviceId },
  });
const verify = (u: TestUser, verificationId: string, body: unknown) =>
  invoke(verifyHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/verifications/{verificationId}',
    pathParameters: { userId: u.id, verificationId },
    token: u.token,
    body,
  });

/** Security events written to the log while `fn` runs. */
async function securityEvents(fn: () => Promise<void>): Promise<Array<Record<string, unknown>>> {
  const events: Array<Record<string, unknown>> = [];
  const spy = vi.spyOn(logger, 'warn').mockImplementation(((
    message: string,
    extra: Record<string, unknown>,
  ) => {
    if (message === 'security event') events.push(extra);
  }) as typeof logger.warn);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return events;
}

afterEach(() => vi.restoreAllMocks());

describe('MFA abuse limits', () => {
  it(`at most ${MFA_LIMITS.starts.max} verification starts per factor per ${MFA_LIMITS.starts.windowSeconds / 60} minutes`, async () => {
    const u = await newUser();
    // An otp factor: for a factor a code is sent to, its destination's limit (5 codes an hour,
    // test/bank/abuse.test.ts) is reached first.
    const { device } = await enroll(u, 'otp');
    for (let i = 0; i < MFA_LIMITS.starts.max; i++) expect((await start(u, device.id)).status).toBe(201);
    const before = (await import('../../lib/bank/wiring.ts')).fullMfa();
    const sent = (await before.outbox(u.id)).length;
    let refused!: Awaited<ReturnType<typeof start>>;
    const events = await securityEvents(async () => {
      refused = await start(u, device.id);
    });
    expect(refused.status, refused.raw).toBe(429);
    expect(refused.body).toMatchObject({ code: 42900 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2 * MFA_LIMITS.starts.windowSeconds);
    expect(events).toEqual([
      expect.objectContaining({
        event: 'mfa_limit_reached',
        userId: u.id,
        limit: 'starts',
        subject: device.id,
      }),
    ]);
    expect((await before.outbox(u.id)).length, 'a refused start sends no code').toBe(sent);
    // Another factor of the same user is not affected.
    const other = await enroll(u, 'email');
    expect((await start(u, other.device.id)).status).toBe(201);
  });

  it(`at most ${MFA_LIMITS.codeFailures.max} failed codes per factor per hour across verifications; then even the right code is refused`, async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms');
    let failures = 0;
    while (failures < MFA_LIMITS.codeFailures.max) {
      const v = await start(u, device.id);
      expect(v.status).toBe(201);
      const code = await outboxCode(u.id, v.body.id);
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 4 && failures < MFA_LIMITS.codeFailures.max; i++, failures++) {
        expect((await verify(u, v.body.id, { code: wrong })).status).toBe(422);
      }
    }
    const v = await start(u, device.id);
    const code = await outboxCode(u.id, v.body.id);
    let locked!: Awaited<ReturnType<typeof verify>>;
    const events = await securityEvents(async () => {
      locked = await verify(u, v.body.id, { code });
    });
    expect(locked.status, locked.raw).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(events).toEqual([
      expect.objectContaining({
        event: 'mfa_limit_reached',
        userId: u.id,
        limit: 'codeFailures',
        subject: device.id,
      }),
    ]);
    // Refused without a look at the code: the verification itself is still pending, not failed.
    expect((await verify(u, v.body.id, { code })).status).toBe(429);
  });

  it('a right code does not count as a failure', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms');
    const attempt = async (wrong: number) => {
      const v = await start(u, device.id);
      const code = await outboxCode(u.id, v.body.id);
      for (let j = 0; j < wrong; j++)
        expect((await verify(u, v.body.id, { code: code === '999999' ? '999998' : '999999' })).status).toBe(
          422,
        );
      return verify(u, v.body.id, { code });
    };
    // 4 x (2 wrong + 1 right): 8 failures; were the 4 right codes counted, the factor would be locked.
    for (let i = 0; i < 4; i++) expect((await attempt(2)).status).toBe(200);
    expect((await attempt(1)).status).toBe(200); // the 9th failure, then a right code: still admitted
  });

  it(`at most ${MFA_LIMITS.tokenFailures.max} failed mfa_token checks per user per hour; then even a valid token is refused`, async () => {
    const u = await newUser();
    const admin = await newUser('Admin', { admin: true });
    const issued = await invoke(issueToken, {
      method: 'POST',
      resource: '/api/users/{userId}/mfa_token',
      pathParameters: { userId: u.id },
      token: admin.token,
      body: {},
    });
    expect(issued.status).toBe(201);
    let failures = 0;
    while (failures < MFA_LIMITS.tokenFailures.max) {
      const { device } = await enroll(u, 'push');
      const v = await start(u, device.id);
      for (let i = 0; i < 4 && failures < MFA_LIMITS.tokenFailures.max; i++, failures++) {
        expect((await verify(u, v.body.id, { mfa_token: `mfa_${randomUUID()}` })).status).toBe(422);
      }
    }
    const { device } = await enroll(u, 'push');
    const v = await start(u, device.id);
    let locked!: Awaited<ReturnType<typeof verify>>;
    const events = await securityEvents(async () => {
      locked = await verify(u, v.body.id, { mfa_token: issued.body.mfa_token });
    });
    expect(locked.status, locked.raw).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(events).toEqual([
      expect.objectContaining({ event: 'mfa_limit_reached', userId: u.id, limit: 'tokenFailures' }),
    ]);
    // Codes of the user's factors are a limit of their own.
    expect((await verify(u, v.body.id, { code: await outboxCode(u.id, v.body.id) })).status).toBe(200);
  });
});

describe('no secret at rest', () => {
  it('after an mfa_token (with Idempotency-Key), an OTP enrolment and sent codes, no item holds any of them', async () => {
    const u = await newUser();
    const admin = await newUser('Admin', { admin: true });
    const key = { 'Idempotency-Key': randomUUID() };
    const tokenCall = () =>
      invoke(issueToken, {
        method: 'POST',
        resource: '/api/users/{userId}/mfa_token',
        pathParameters: { userId: u.id },
        token: admin.token,
        body: { reusable: true },
        headers: key,
      });
    const issued = await tokenCall();
    expect(issued.status).toBe(201);
    const replayed = await tokenCall();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(issued.body); // the sealed response still replays the token
    const otp = await enroll(u, 'otp');
    const codes: string[] = [];
    for (const kind of ['sms', 'email', 'push'] as const) {
      const { device } = await enroll(u, kind);
      const v = await start(u, device.id);
      codes.push(await outboxCode(u.id, v.body.id));
    }
    const secrets = [issued.body.mfa_token as string, otp.secret!, u.token, admin.token];

    const items: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new ScanCommand({ TableName: config.tableName, ExclusiveStartKey }),
      );
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    expect(items.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const item of items) {
      // Binary attributes (compressed note content) as base64, not as {"0": byte, ...}: their index
      // keys would read as six-digit codes.
      const text = JSON.stringify(item, (_, v) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v,
      );
      for (const secret of secrets)
        if (text.includes(secret)) found.push(`${item.PK}/${item.SK} holds a secret`);
      for (const code of codes)
        if (new RegExp(`(?<![0-9A-Za-z_-])${code}(?![0-9A-Za-z_-])`).test(text))
          found.push(`${item.PK}/${item.SK} holds code ${code}`);
    }
    expect(found).toEqual([]);
  });
});
