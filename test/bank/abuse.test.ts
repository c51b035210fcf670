// Abuse of the code senders, and state checked again at each step (docs/bank.md, "Abuse limits"):
// the destination policy of sms and voice codes, superseded and expired verifications, proofs of
// the wrong kind, the step-up at activation, the 10-factor limit under concurrency.
import { afterEach, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { totpCode } from '../../lib/bank/totp.ts';
import { DynamoFactorStore } from '../../lib/bank/adapters/dynamo-factors.ts';
import { enrolment, enrolmentWithEverything, mfa, verifications } from '../../lib/bank/wiring.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, enroll, expectError } from './helpers.ts';

const devices = (u: TestUser) => `/api/users/${u.id}/devices`;
const enrol = (u: TestUser, body: unknown) => call('POST', devices(u), { token: u.token, body });
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
    expect(await mfa().outbox(u.id)).toEqual([]);
    // Any other number still gets its code.
    expect((await enrol(u, { kind: 'voice', phone_number: '+442071234567' })).status).toBe(201);
  });

  it('with SMS_VOICE_ALLOWED_CALLING_CODES, only those calling codes (enrolment and verification)', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'sms'); // +1, enrolled by the operator
    process.env.SMS_VOICE_ALLOWED_CALLING_CODES = '44, 49';
    await expect(
      enrolment().enroll(u.id, { kind: 'sms', phone_number: '+15551234567' }, undefined, noLog),
    ).rejects.toMatchObject({ kind: 'invalid', fields: [{ field: 'phone_number' }] });
    await expect(verifications().startVerification(u.id, device.id, undefined, noLog)).rejects.toMatchObject({
      kind: 'invalid',
      fields: [{ field: 'phone_number' }],
    });
    expect(await mfa().outbox(u.id)).toEqual([]);
    const fresh = await newUser();
    const ok = await enrolment().enroll(
      fresh.id,
      { kind: 'sms', phone_number: '+4915112345678' },
      undefined,
      noLog,
    );
    expect(ok.status).toBe('pending_activation');
    process.env.SMS_VOICE_ALLOWED_CALLING_CODES = '';
    expect((await verifications().startVerification(u.id, device.id, undefined, noLog)).status).toBe(
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
  await enrolmentWithEverything().activatePush(
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
    const { mfa_token } = await mfa().issueMfaToken(u.id, { reusable: true }, noLog);
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
    const { mfa_token } = await mfa().issueMfaToken(u.id, {}, noLog);
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
  it('a factor enrolled while the user had none activates, once another is active, only with a step-up (consumed)', async () => {
    const u = await newUser();
    const a = await enrol(u, { kind: 'otp', name: 'A' });
    const c = await enrol(u, { kind: 'otp', name: 'C' });
    const b = await enrol(u, { kind: 'sms', phone_number: '+15551230000' });
    const activate = (id: string, body: unknown, stepUp?: string) =>
      call('POST', `${devices(u)}/${id}/activate`, {
        token: u.token,
        body,
        headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
      });
    const bCode = (await mfa().outbox(u.id)).find((e) => e.verificationId === b.body.id)!.code;
    expect((await activate(b.body.id, { code: bCode })).status).toBe(200);
    const aCode = await totpCode(a.body.activation.secret, Date.now() / 1000);
    expectError(await activate(a.body.id, { code: aCode }), 403);
    const started = await call('POST', `/api/users/${u.id}/verifications`, {
      token: u.token,
      body: { device_id: b.body.id },
    });
    const code = (await mfa().outbox(u.id)).find((e) => e.verificationId === started.body.id)!.code;
    expect((await check(u, started.body.id, { code })).status).toBe(200);
    const ok = await activate(a.body.id, { code: aCode }, started.body.id);
    expect(ok.status, ok.text).toBe(200);
    // The step-up was consumed.
    const cCode = await totpCode(c.body.activation.secret, Date.now() / 1000);
    expectError(await activate(c.body.id, { code: cCode }, started.body.id), 403);
  });
});
