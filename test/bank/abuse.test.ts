// Abuse of the code senders, and state checked again at each step (docs/bank.md, "Abuse limits"):
// the destination policy of sms and voice codes, superseded and expired verifications, proofs of
// the wrong kind, the step-up at activation, the 10-factor limit under concurrency.
import { afterEach, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { totpCode } from '../../lib/bank/totp.ts';
import { DynamoFactorStore } from '../../lib/bank/adapters/dynamo-factors.ts';
import {
  deviceActivator,
  deviceEnroller,
  fullEnrolment,
  fullMfa,
  verificationStarter,
  verifier,
} from '../../lib/bank/wiring.ts';
import { bankKeys } from '../../lib/data/keys.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { call, enroll, expectError, uniqueEmail, uniquePhone } from './helpers.ts';

const devices = (u: TestUser) => `/api/users/${u.id}/devices`;
const enrol = (u: TestUser, body: unknown, stepUp?: string) =>
  call('POST', devices(u), {
    token: u.token,
    body,
    headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
  });
const noLog = () => {};
/** A well-formed AuthenticationResponseJSON (it proves nothing). */
const credential = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
};

describe('the destination policy of sms and voice codes', () => {
  afterEach(() => {
    delete process.env.SMS_VOICE_ALLOWED_CALLING_CODES;
  });

  it('never the shared-cost, premium-rate or satellite ranges: 422 naming phone_number, nothing sent or stored', async () => {
    const u = await newUser();
    for (const phone of [
      '+80812345678',
      '+870773123456',
      '+87812345678',
      '+88163123456',
      '+88213123456',
      '+8835100123',
      '+97912345678',
      '+99112345678',
    ])
      for (const kind of ['sms', 'voice'])
        expectError(await enrol(u, { kind, phone_number: phone }), 422, ['phone_number']);
    expect((await call('GET', devices(u), { token: u.token })).body).toEqual([]);
    expect(await fullMfa().outbox(u.id)).toEqual([]);
    // Any other number still gets its code.
    expect((await enrol(u, { kind: 'voice', phone_number: uniquePhone('+44207') })).status).toBe(201);
  });

  it('with SMS_VOICE_ALLOWED_CALLING_CODES, only those calling codes (enrolment and verification)', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms'); // +1, enrolled by the operator
    process.env.SMS_VOICE_ALLOWED_CALLING_CODES = '44, 49';
    await expect(
      deviceEnroller().enroll(u.id, { kind: 'sms', phone_number: uniquePhone() }, undefined, noLog),
    ).rejects.toMatchObject({ kind: 'invalid', fields: [{ field: 'phone_number' }] });
    await expect(
      verificationStarter().startVerification(u.id, device.id, undefined, noLog),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fields: [{ field: 'phone_number' }],
    });
    expect(await fullMfa().outbox(u.id)).toEqual([]);
    const fresh = await newUser();
    const ok = await deviceEnroller().enroll(
      fresh.id,
      { kind: 'sms', phone_number: uniquePhone('+49151') },
      undefined,
      noLog,
    );
    expect(ok.status).toBe('pending_activation');
    process.env.SMS_VOICE_ALLOWED_CALLING_CODES = '';
    expect((await verificationStarter().startVerification(u.id, device.id, undefined, noLog)).status).toBe(
      'pending',
    );
  });
});

/** A user with an active push factor (activated as the device app does) and an mfa_token. */
async function pushUser() {
  const u = await newUser();
  const enrolled = await enrol(u, { kind: 'push', name: 'Phone' });
  expect(enrolled.status, enrolled.text).toBe(201);
  const { publicKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  await fullEnrolment().activatePush(
    { ticket: enrolled.body.activation.ticket, public_key: { kty, crv, x, y } },
    noLog,
  );
  return { u, deviceId: enrolled.body.id as string };
}
const startPush = async (u: TestUser, deviceId: string) => {
  const res = await call('POST', `/api/users/${u.id}/verifications`, {
    token: u.token,
    body: { device_id: deviceId },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const check = (u: TestUser, id: string, body: unknown) =>
  call('POST', `/api/users/${u.id}/verifications/${id}`, { token: u.token, body });

describe('a superseded or expired verification approves nothing', () => {
  it('a push superseded by a newer one: every proof → 410, and it steps up nothing', async () => {
    const { u, deviceId } = await pushUser();
    const v1 = await startPush(u, deviceId);
    const v2 = await startPush(u, deviceId);
    const { mfa_token } = await fullMfa().issueMfaToken(u.id, { reusable: true }, noLog);
    expectError(await check(u, v1, { mfa_token }), 410);
    expectError(await check(u, v1, { recovery_code: 'aaaa-bbbb-cccc' }), 410);
    expectError(await check(u, v1, { code: '123456' }), 410);
    expectError(await check(u, v1, { credential }), 410);
    expect(
      (await call('GET', `/api/users/${u.id}/verifications/${v1}`, { token: u.token })).body.status,
    ).toBe('expired');
    const transfer = await call('POST', '/api/transfers', {
      token: u.token,
      body: { amount: 1_000_000, currency: 'EUR', destination: 'acct_123' },
      headers: { 'X-MFA-Verification': v1 },
    });
    expect(transfer.status, transfer.text).toBe(403);
    // The current one still approves.
    expect((await check(u, v2, { mfa_token })).status).toBe(200);
  });
});

describe('proofs of the wrong kind', () => {
  it('a code on a push → 422 naming code, no attempt used; a credential on an otp code verification → 422 naming credential', async () => {
    const { u, deviceId } = await pushUser();
    const v = await startPush(u, deviceId);
    for (let i = 0; i < 6; i += 1) {
      const res = await check(u, v, { code: '123456' });
      expectError(res, 422, ['code']);
      expect(res.body.attempts_left).toBeUndefined();
    }
    expect((await getVerificationOf(u.id, v)).attempts).toBe(0);
    const { mfa_token } = await fullMfa().issueMfaToken(u.id, {}, noLog);
    expect((await check(u, v, { mfa_token })).status).toBe(200);

    const { device } = await enroll(u, 'sms');
    const started = await call('POST', `/api/users/${u.id}/verifications`, {
      token: u.token,
      body: { device_id: device.id },
    });
    const res = await check(u, started.body.id, { credential });
    expectError(res, 422, ['credential']);
    expect((await getVerificationOf(u.id, started.body.id)).attempts).toBe(0);
  });
});

const getVerificationOf = async (userId: string, id: string) =>
  (await new DynamoFactorStore().getVerification(userId, id)).verification!;

describe('the step-up rule at activation', () => {
  const activateIn = (u: TestUser) => (id: string, body: unknown, stepUp?: string) =>
    call('POST', `${devices(u)}/${id}/activate`, {
      token: u.token,
      body,
      headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
    });
  const item = async (key: { PK: string; SK: string }) =>
    (
      await documentClient().send(
        new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }),
      )
    ).Item;
  const slots = async (u: TestUser) => (await item(bankKeys.factorSlots(u.id)))?.count;
  const ids = async (u: TestUser) =>
    ((await call('GET', devices(u), { token: u.token })).body as Array<{ id: string }>).map((d) => d.id);
  /** An approved verification of an active otp factor, through a reusable mfa_token. */
  const stepUp = async (u: TestUser, deviceId: string) => {
    const { mfa_token } = await fullMfa().issueMfaToken(u.id, { reusable: true }, noLog);
    const v = await verificationStarter().startVerification(u.id, deviceId, undefined, noLog);
    await verifier().verify(u.id, v.id, { mfa_token }, noLog);
    return v.id;
  };

  it('the first activation discards every other pending factor enrolled without a step-up, and frees their slots', async () => {
    const u = await newUser();
    const activate = activateIn(u);
    const a = await enrol(u, { kind: 'otp', name: 'A' });
    const b = await enrol(u, { kind: 'otp', name: 'B' });
    const p = await enrol(u, { kind: 'push', name: 'P' });
    const d = await enrol(u, { kind: 'device', name: 'K' });
    expect(await slots(u)).toBe(4);
    const first = await activate(a.body.id, {
      code: await totpCode(a.body.activation.secret, Date.now() / 1000),
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.recovery_codes).toHaveLength(10);
    expect(await ids(u)).toEqual([a.body.id]);
    expect(await slots(u)).toBe(1);
    const bCode = await totpCode(b.body.activation.secret, Date.now() / 1000);
    expectError(await activate(b.body.id, { code: bCode }), 404);
    const registration = { ...credential, response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } };
    expectError(await activate(d.body.id, { credential: registration }), 404);
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pushed = await call('POST', '/api/push/activations', {
      body: { ticket: p.body.activation.ticket, public_key: await exportJWK(publicKey) },
    });
    expectError(pushed, 410);

    // Factors enrolled with a step-up once A is active are not discarded by later activations.
    const c = await enrol(u, { kind: 'otp', name: 'C' }, await stepUp(u, a.body.id));
    const e = await deviceEnroller().enroll(
      u.id,
      { kind: 'otp', name: 'E' },
      await stepUp(u, a.body.id),
      noLog,
    );
    const cCode = await totpCode(c.body.activation.secret, Date.now() / 1000);
    expect((await activate(c.body.id, { code: cCode })).status).toBe(200);
    expect(await ids(u)).toEqual([a.body.id, c.body.id, e.id]);
    const eCode = await totpCode((e.activation as { secret: string }).secret, Date.now() / 1000);
    expect((await activate(e.id, { code: eCode })).status).toBe(200);
    expect(await slots(u)).toBe(3);
  });

  // Only a race leaves a factor enrolled without a step-up pending once another is active: an
  // enrolment that read "no active factor" before the first activation and wrote after it. The
  // test makes that state by putting the discarded factors' items back.
  it('a factor enrolled while the user had none activates, once another is active, only with a step-up (consumed); the device app is refused', async () => {
    const u = await newUser();
    const activate = activateIn(u);
    const a = await enrol(u, { kind: 'otp', name: 'A' });
    const c = await enrol(u, { kind: 'otp', name: 'C' });
    const p = await enrol(u, { kind: 'push', name: 'P' });
    const late = await Promise.all([a, c, p].map((f) => item(bankKeys.device(u.id, f.body.id))));
    const b = await enrol(u, { kind: 'sms', phone_number: uniquePhone() });
    const bCode = (await fullMfa().outbox(u.id)).find((e) => e.verificationId === b.body.id)!.code;
    expect((await activate(b.body.id, { code: bCode })).status).toBe(200);
    for (const Item of late)
      await documentClient().send(new PutCommand({ TableName: config.tableName, Item }));

    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pushed = await call('POST', '/api/push/activations', {
      body: { ticket: p.body.activation.ticket, public_key: await exportJWK(publicKey) },
    });
    expectError(pushed, 403);
    const aCode = await totpCode(a.body.activation.secret, Date.now() / 1000);
    expectError(await activate(a.body.id, { code: aCode }), 403);
    const started = await call('POST', `/api/users/${u.id}/verifications`, {
      token: u.token,
      body: { device_id: b.body.id },
    });
    const code = (await fullMfa().outbox(u.id)).find((e) => e.verificationId === started.body.id)!.code;
    expect((await check(u, started.body.id, { code })).status).toBe(200);
    const ok = await activate(a.body.id, { code: aCode }, started.body.id);
    expect(ok.status, ok.text).toBe(200);
    // The step-up was consumed.
    const cCode = await totpCode(c.body.activation.secret, Date.now() / 1000);
    expectError(await activate(c.body.id, { code: cCode }, started.body.id), 403);
  });
});

describe('send limits (SMS and voice pumping), over the table', () => {
  afterEach(() => {
    delete process.env.SMS_VOICE_HOURLY_LIMIT;
  });

  it('per user: 3 code-sending enrolments an hour without an active factor, then 429 + Retry-After; e-mail apart', async () => {
    const u = await newUser();
    for (let i = 0; i < 3; i += 1)
      expect((await enrol(u, { kind: 'sms', phone_number: uniquePhone() })).status).toBe(201);
    const refused = await enrol(u, { kind: 'voice', phone_number: uniquePhone() });
    expectError(refused, 429);
    expect(refused.body.code).toBe(42900);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', devices(u), { token: u.token })).body).toHaveLength(3);
    expect((await enrol(u, { kind: 'email', email: uniqueEmail() })).status).toBe(201);
  });

  it('per destination: 5 codes an hour to one number across users, enrolments and verifications', async () => {
    const number = uniquePhone();
    const owner = await newUser();
    const { device } = await enroll(owner, 'sms', { phone: number });
    for (let i = 0; i < 4; i += 1) {
      const u = await newUser();
      expect((await enrol(u, { kind: 'sms', phone_number: number })).status).toBe(201);
    }
    const start = () =>
      call('POST', `/api/users/${owner.id}/verifications`, {
        token: owner.token,
        body: { device_id: device.id },
      });
    expect((await start()).status).toBe(201);
    const before = (await fullMfa().outbox(owner.id)).length;
    const refused = await start();
    expectError(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await fullMfa().outbox(owner.id)).toHaveLength(before);
    const late = await newUser();
    expectError(await enrol(late, { kind: 'sms', phone_number: number }), 429);
    // The counter is the number's HMAC: the number is stored nowhere but on the factors.
    const { Items = [] } = await documentClient().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: 'begins_with(PK, :dest)',
        ExpressionAttributeValues: { ':dest': 'BANK#DEST#' },
      }),
    );
    expect(Items.length).toBeGreaterThan(0);
    expect(JSON.stringify(Items)).not.toContain(number.slice(1));
  });

  it('per stack: past SMS_VOICE_HOURLY_LIMIT sends are refused for everyone (503 + Retry-After)', async () => {
    const u = await newUser();
    await deviceEnroller().enroll(u.id, { kind: 'sms', phone_number: uniquePhone() }, undefined, noLog);
    process.env.SMS_VOICE_HOURLY_LIMIT = '1';
    const other = await newUser();
    const refused = await deviceEnroller()
      .enroll(other.id, { kind: 'voice', phone_number: uniquePhone() }, undefined, noLog)
      .catch((e) => e);
    expect(refused).toMatchObject({ kind: 'unavailable' });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await fullMfa().outbox(other.id)).toEqual([]);
    delete process.env.SMS_VOICE_HOURLY_LIMIT;
    expect(
      (
        await deviceEnroller().enroll(
          other.id,
          { kind: 'sms', phone_number: uniquePhone() },
          undefined,
          noLog,
        )
      ).status,
    ).toBe('pending_activation');
  });
});

describe('at most 10 factors, under concurrency (a conditional counter)', () => {
  const enrolOtp = (u: TestUser, stepUp?: string) =>
    deviceEnroller().enroll(u.id, { kind: 'otp' }, stepUp, noLog) as Promise<{
      id: string;
      activation: { secret: string };
    }>;
  const live = async (u: TestUser) =>
    (await call('GET', devices(u), { token: u.token })).body.length as number;
  const refusedFull = async (p: Promise<unknown>) =>
    expect(p).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/at most 10 factors/),
    });
  /** An approved verification of the active factor, through a reusable mfa_token. */
  const stepUp = async (u: TestUser, deviceId: string) => {
    const { mfa_token } = await fullMfa().issueMfaToken(u.id, { reusable: true }, noLog);
    const v = await verificationStarter().startVerification(u.id, deviceId, undefined, noLog);
    await verifier().verify(u.id, v.id, { mfa_token }, noLog);
    return v.id;
  };

  it('40 concurrent enrolments never make more than 10; an expired pending factor, the discarded ones and a deleted one free a slot', async () => {
    const u = await newUser();
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => enrolOtp(u)));
    const made = results.filter((r) => r.status === 'fulfilled').length;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(10);
    expect(await live(u)).toBe(made);
    const mine: Array<{ id: string; activation: { secret: string } }> = results.flatMap((r) =>
      r.status === 'fulfilled' ? [r.value] : [],
    );
    while ((await live(u)) < 10) mine.push(await enrolOtp(u));
    await refusedFull(enrolOtp(u));
    expect(await live(u)).toBe(10);

    // A pending factor past its 10 minutes holds no slot: the next enrolment recounts.
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: bankKeys.device(u.id, mine[0].id),
        UpdateExpression: 'SET pendingUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    mine.push(await enrolOtp(u));
    await refusedFull(enrolOtp(u));

    // The first activation discards the 9 other pending factors (enrolled without a step-up) and
    // gives their slots back; deleting a factor gives its slot back.
    const count = async () =>
      (
        await documentClient().send(
          new GetCommand({
            TableName: config.tableName,
            Key: bankKeys.factorSlots(u.id),
            ConsistentRead: true,
          }),
        )
      ).Item?.count;
    const first = mine[1];
    await deviceActivator().activate(
      u.id,
      first.id,
      { code: await totpCode(first.activation.secret, Date.now() / 1000) },
      noLog,
    );
    expect(await live(u)).toBe(1);
    expect(await count()).toBe(1);
    const added = await enrolOtp(u, await stepUp(u, first.id));
    expect(await count()).toBe(2);
    await fullMfa().deleteDevice(u.id, added.id, await stepUp(u, first.id), noLog);
    expect(await live(u)).toBe(1);
    expect(await count()).toBe(1);
  });
});

/** A request to the local runner from another loopback address (what API Gateway calls sourceIp). */
function from(address: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const url = new URL(`${process.env.TEST_BASE_URL}${path}`);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method,
        localAddress: address,
        headers: {
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const loopback = () => `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;

describe('routes without an API token: refused requests per source address', () => {
  it('30 refused a minute over those routes, then 429 + Retry-After for that address only', async () => {
    const { deviceId, key } = await pushDevice();
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: deviceId })
      .setSubject(deviceId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 120)
      .sign(key);
    const [attacker, honest] = [loopback(), loopback()];
    const ticket = `pt_${'A'.repeat(43)}`;
    const refusals = [
      () => from(attacker, 'POST', '/api/push/activations', { body: { ticket, public_key: {} } }),
      () => from(attacker, 'GET', '/api/push/challenges', { token: 'not-a-jwt' }),
      () =>
        from(attacker, 'POST', '/api/push/challenges/ver_x', { token: 'not-a-jwt', body: { response: 'x' } }),
    ];
    for (let i = 0; i < 30; i += 1) {
      const res = await refusals[i % 3]();
      expect([401, 410, 422]).toContain(res.status);
    }
    // The genuine device, from the attacker's address: refused before its JWT is looked at.
    const blocked = await from(attacker, 'GET', '/api/push/challenges', { token: jwt });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(42900);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await refusals[0]()).status).toBe(429);
    // From another address the device and a valid ticket are not affected.
    expect((await from(honest, 'GET', '/api/push/challenges', { token: jwt })).status).toBe(200);
    const enrolled = await enrol(await newUser(), { kind: 'push' });
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(publicKey);
    const activated = await from(honest, 'POST', '/api/push/activations', {
      body: { ticket: enrolled.body.activation.ticket, public_key: { kty, crv, x, y } },
    });
    expect(activated.status).toBe(201);
  });
});

/** A user with an active push factor and its device key. */
async function pushDevice() {
  const u = await newUser();
  const enrolled = await enrol(u, { kind: 'push', name: 'Phone' });
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  await fullEnrolment().activatePush(
    { ticket: enrolled.body.activation.ticket, public_key: { kty, crv, x, y } },
    noLog,
  );
  return { deviceId: enrolled.body.id as string, key: privateKey };
}
