// Multi-factor over HTTP: factors, verifications with codes, TOTP and mfa_tokens, attempt limit,
// expiry, step-up for deleting a factor, admin-or-self access, and request budgets.
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { bankKeys } from '../../lib/data/keys.ts';
import { totpCode } from '../../lib/bank/totp.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { approvedVerification, call, enroll, expectError, expectRequests, outboxCode } from './helpers.ts';

const start = (u: TestUser, deviceId: string, as = u) =>
  call('POST', `/api/users/${u.id}/verifications`, { token: as.token, body: { device_id: deviceId } });
const check = (u: TestUser, verificationId: string, body: unknown, headers?: Record<string, string>) =>
  call('POST', `/api/users/${u.id}/verifications/${verificationId}`, { token: u.token, body, headers });

async function otpFactor(u: TestUser) {
  const enrolled = await enroll(u, 'otp');
  expect(enrolled.secret).toMatch(/^[A-Z2-7]+=*$/);
  expect(enrolled.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
  return { deviceId: enrolled.device.id, secret: enrolled.secret! };
}

describe('factors', () => {
  it('lists factors without secrets, within budget; others get 403, admins may', async () => {
    const u = await newUser();
    await otpFactor(u);
    await enroll(u, 'email');
    const res = await call('GET', `/api/users/${u.id}/devices`, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.map((d: { kind: string }) => d.kind)).toEqual(['otp', 'email']);
    expect(res.body[0]).toEqual({
      id: expect.stringMatching(/^dev_/),
      kind: 'otp',
      name: 'otp factor',
      default: true,
      created: expect.any(Number),
      last_used: null,
      status: 'active',
    });
    expect(res.text).not.toMatch(/secret|sealed|address|example\.test/i);
    expectRequests(res, 2);
    const other = await newUser();
    expectError(await call('GET', `/api/users/${u.id}/devices`, { token: other.token }), 403);
    expectError(await start(u, res.body[0].id, other), 403);
    const admin = await newUser('Admin', { admin: true });
    expect((await call('GET', `/api/users/${u.id}/devices`, { token: admin.token })).body).toHaveLength(2);
  });

  it('deleting a factor needs a step-up that is consumed once', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'push');
    const path = `/api/users/${u.id}/devices/${device.id}`;
    expectError(await call('DELETE', path, { token: u.token }), 403);
    expectError(
      await call('DELETE', path, {
        token: u.token,
        headers: { 'X-MFA-Verification': 'ver_aaaaaaaaaaaaaaaaaaaa' },
      }),
      403,
    );
    const pending = await start(u, device.id);
    expectError(
      await call('DELETE', path, { token: u.token, headers: { 'X-MFA-Verification': pending.body.id } }),
      403,
    );
    const verification = await approvedVerification(u);
    const other = await newUser();
    expectError(
      await call('DELETE', path, { token: other.token, headers: { 'X-MFA-Verification': verification } }),
      403,
    );
    const deleted = await call('DELETE', path, {
      token: u.token,
      headers: { 'X-MFA-Verification': verification },
    });
    expect(deleted.status).toBe(204);
    expectRequests(deleted, 2);
    expect(
      (await call('GET', `/api/users/${u.id}/devices`, { token: u.token })).body.map(
        (d: { id: string }) => d.id,
      ),
    ).not.toContain(device.id);
    const second = await enroll(u, 'device');
    expectError(
      await call('DELETE', `/api/users/${u.id}/devices/${second.device.id}`, {
        token: u.token,
        headers: { 'X-MFA-Verification': verification },
      }),
      403,
    );
    const fresh = await approvedVerification(u);
    expectError(
      await call('DELETE', `/api/users/${u.id}/devices/dev_nosuchdevice0000000`, {
        token: u.token,
        headers: { 'X-MFA-Verification': fresh },
      }),
      404,
    );
  });

  it('a step-up older than 5 minutes is refused', async () => {
    const u = await newUser();
    const verification = await approvedVerification(u);
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: bankKeys.verification(u.id, verification),
        UpdateExpression: 'SET approvedAt = approvedAt - :old',
        ExpressionAttributeValues: { ':old': 301 },
      }),
    );
    const { device } = await enroll(u, 'email');
    expectError(
      await call('DELETE', `/api/users/${u.id}/devices/${device.id}`, {
        token: u.token,
        headers: { 'X-MFA-Verification': verification },
      }),
      403,
    );
  });
});

describe('verifications', () => {
  it('sms: the code goes to the outbox hashed at rest; verify approves once; budgets', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms');
    const started = await start(u, device.id);
    expect(started.status).toBe(201);
    expect(started.body).toEqual({
      id: expect.stringMatching(/^ver_/),
      device_id: device.id,
      status: 'pending',
      expires_at: expect.any(Number),
    });
    // The factor, the code's destination and stack sends counted (docs/bank.md, "Abuse limits"),
    // the verification's transaction.
    expectRequests(started, 5);
    const code = await outboxCode(u.id, started.body.id);
    expect(code).toMatch(/^\d{6}$/);
    const ok = await check(u, started.body.id, { code });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: started.body.id, status: 'approved' });
    expectRequests(ok, 4);
    expectError(await check(u, started.body.id, { code }), 409);
    const devices = await call('GET', `/api/users/${u.id}/devices`, { token: u.token });
    expect(devices.body[0].last_used).toEqual(expect.any(Number));
  });

  // Five: auth, the reservation of the key, the verification, the failure counter of the abuse
  // limits (counted before the proof is checked: lib/bank/limits.ts), the approval transaction.
  it('with an Idempotency-Key the verify call stays within five requests and replays', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'email');
    const started = await start(u, device.id);
    const code = await outboxCode(u.id, started.body.id);
    const key = randomUUID();
    const ok = await check(u, started.body.id, { code }, { 'Idempotency-Key': key });
    expect(ok.status).toBe(200);
    expectRequests(ok, 5);
    const again = await check(u, started.body.id, { code }, { 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('five wrong codes: 422 with attempts left, then 429, and the right code is refused after', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'voice');
    const started = await start(u, device.id);
    const code = await outboxCode(u.id, started.body.id);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const res = await check(u, started.body.id, { code: wrong });
      expectError(res, 422, ['code']);
      expect(res.body.attempts_left).toBe(left);
    }
    const fifth = await check(u, started.body.id, { code: wrong });
    expectError(fifth, 429);
    expect(fifth.headers.get('retry-after')).toBe('0');
    expectError(await check(u, started.body.id, { code }), 429);
  });

  it('TOTP: the current code is accepted once; the same code is refused on a new verification', async () => {
    const u = await newUser();
    const { deviceId, secret } = await otpFactor(u);
    const first = await start(u, deviceId);
    expectRequests(first, 3);
    const code = await totpCode(secret, Math.floor(Date.now() / 1000));
    const ok = await check(u, first.body.id, { code });
    expect(ok.status, ok.text).toBe(200);
    expectRequests(ok, 4);
    const second = await start(u, deviceId);
    const replay = await check(u, second.body.id, { code });
    expectError(replay, 422, ['code']);
    expect(replay.body.attempts_left).toBe(4);
  });

  it('an expired verification is 410', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'email');
    const started = await start(u, device.id);
    const code = await outboxCode(u.id, started.body.id);
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: bankKeys.verification(u.id, started.body.id),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': 1 },
      }),
    );
    expectError(await check(u, started.body.id, { code }), 410);
  });

  it('mfa_token: admins only; single-use unless reusable; verifies in place of a code', async () => {
    const u = await newUser();
    const admin = await newUser('Admin', { admin: true });
    expectError(await call('POST', `/api/users/${u.id}/mfa_token`, { token: u.token, body: {} }), 403);
    const issued = await call('POST', `/api/users/${u.id}/mfa_token`, { token: admin.token });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ mfa_token: expect.stringMatching(/^mfa_/), reusable: false });
    expect(issued.body.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(259_190);
    const { device } = await enroll(u, 'sms');
    const one = await start(u, device.id);
    const ok = await check(u, one.body.id, { mfa_token: issued.body.mfa_token });
    expect(ok.status).toBe(200);
    expectRequests(ok, 5);
    const two = await start(u, device.id);
    expectError(await check(u, two.body.id, { mfa_token: issued.body.mfa_token }), 422, ['mfa_token']);
    const reusable = await call('POST', `/api/users/${u.id}/mfa_token`, {
      token: admin.token,
      body: { expires_in: 60, reusable: true },
    });
    expect(reusable.body.reusable).toBe(true);
    for (let i = 0; i < 2; i++) {
      const v = await start(u, device.id);
      expect((await check(u, v.body.id, { mfa_token: reusable.body.mfa_token })).status).toBe(200);
    }
    const stranger = await newUser();
    const theirs = await enroll(stranger, 'sms');
    const v = await start(stranger, theirs.device.id);
    expectError(await check(stranger, v.body.id, { mfa_token: reusable.body.mfa_token }), 422, ['mfa_token']);
  });

  it("another user's verification is 403; an unknown one 404", async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms');
    const started = await start(u, device.id);
    const other = await newUser();
    expectError(
      await call('POST', `/api/users/${u.id}/verifications/${started.body.id}`, {
        token: other.token,
        body: { code: '123456' },
      }),
      403,
    );
    expectError(await check(other, started.body.id, { code: '123456' }), 404);
  });
});
