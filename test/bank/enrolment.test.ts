// Enrolment through the API: every kind enrolled `pending_activation` with its activation data shown
// once, activated by its proof; only active factors verify; the step-up needed once a user has an
// active factor; pending factors expire; at most 10 factors; activation attempts limited; recovery
// codes (first activation, single use, replaced with a step-up); factors enrolled before (no
// status) keep working; bad input named in the Bank dialect; no secret listed.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../lib/bank/totp.ts';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { bankKeys } from '../../lib/data/keys.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, enroll, expectError, outboxCode, uniqueEmail, uniquePhone } from './helpers.ts';

const devices = (u: TestUser) => `/api/users/${u.id}/devices`;
const enrol = (u: TestUser, body: unknown, stepUp?: string) =>
  call('POST', devices(u), {
    token: u.token,
    body,
    headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
  });
const activate = (u: TestUser, deviceId: string, body: unknown) =>
  call('POST', `${devices(u)}/${deviceId}/activate`, { token: u.token, body });
const start = (u: TestUser, deviceId: string) =>
  call('POST', `/api/users/${u.id}/verifications`, { token: u.token, body: { device_id: deviceId } });
const check = (u: TestUser, verificationId: string, body: unknown) =>
  call('POST', `/api/users/${u.id}/verifications/${verificationId}`, { token: u.token, body });

/** An otp factor enrolled and activated through the API (the user's first: no step-up). */
async function firstOtp(u: TestUser) {
  const res = await enrol(u, { kind: 'otp', name: 'Phone app' });
  expect(res.status, res.text).toBe(201);
  const { secret } = res.body.activation;
  const activated = await activate(u, res.body.id, { code: await totpCode(secret, Date.now() / 1000) });
  expect(activated.status, activated.text).toBe(200);
  return {
    id: res.body.id as string,
    secret: secret as string,
    recovery: activated.body.recovery_codes as string[],
  };
}

/** A step-up: an approved verification of an sms factor the operator enrolled. */
async function stepUp(u: TestUser, deviceId?: string): Promise<string> {
  const id = deviceId ?? (await enroll(u, 'sms')).device.id;
  const started = await start(u, id);
  const verified = await check(u, started.body.id, { code: await outboxCode(u.id, started.body.id) });
  expect(verified.status, verified.text).toBe(200);
  return started.body.id;
}

describe('enrolment through the API', () => {
  it('otp: pending with its secret shown once, active with a code; the first brings ten recovery codes', async () => {
    const u = await newUser();
    const res = await enrol(u, { kind: 'otp', name: 'Phone app' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/users/${u.id}/devices/${res.body.id}`);
    expect(res.body).toMatchObject({
      kind: 'otp',
      name: 'Phone app',
      status: 'pending_activation',
      default: false,
    });
    expect(res.body.activation.secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(res.body.activation.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);

    // Pending: listed with its status, never verifies.
    const listed = await call('GET', devices(u), { token: u.token });
    expect(listed.body).toEqual([expect.objectContaining({ id: res.body.id, status: 'pending_activation' })]);
    expect(listed.text).not.toContain(res.body.activation.secret);
    expectError(await start(u, res.body.id), 422, ['device_id']);

    const wrong = await activate(u, res.body.id, { code: '000000' });
    expectError(wrong, 422, ['code']);
    expect(wrong.body.attempts_left).toBe(4);
    const code = await totpCode(res.body.activation.secret, Date.now() / 1000);
    const ok = await activate(u, res.body.id, { code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ id: res.body.id, status: 'active', default: true });
    expect(ok.body.recovery_codes).toHaveLength(10);
    expect(new Set(ok.body.recovery_codes).size).toBe(10);
    // Activated once; the same code again is no activation.
    expectError(await activate(u, res.body.id, { code }), 409);
    const after = await call('GET', devices(u), { token: u.token });
    expect(after.body[0]).toMatchObject({ status: 'active', default: true });
    expect(after.text).not.toMatch(/recovery|secret/i);
  });

  it('a user with an active factor enrols with a step-up, consumed; sms activates with the code sent', async () => {
    const u = await newUser();
    await firstOtp(u);
    const phone = `${uniquePhone().slice(0, -2)}67`;
    expectError(await enrol(u, { kind: 'sms', phone_number: phone }), 403);
    const up = await stepUp(u);
    const res = await enrol(u, { kind: 'sms', phone_number: phone, name: 'Mobile' }, up);
    expect(res.status, res.text).toBe(201);
    expect(res.body.activation).toEqual({ sent_to: '+1••••••••67' });
    expect(res.text).not.toContain(phone);
    // The step-up was consumed.
    expectError(await enrol(u, { kind: 'email', email: uniqueEmail() }, up), 403);

    const code = await outboxCode(u.id, res.body.id);
    const ok = await activate(u, res.body.id, { code });
    expect(ok.body).toMatchObject({ status: 'active', default: false });
    expect(ok.body.recovery_codes, 'only the first activation brings codes').toBeUndefined();
    // Now it verifies like any sms factor.
    expect((await stepUp(u, res.body.id)).startsWith('ver_')).toBe(true);
  });

  it('activation attempts are limited: 5 wrong codes, then 429 even with the right one', async () => {
    const u = await newUser();
    const res = await enrol(u, { kind: 'email', email: uniqueEmail() });
    expect(res.body.activation).toEqual({ sent_to: 'm•••@example.test' });
    const code = await outboxCode(u.id, res.body.id);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let left = 4; left >= 0; left -= 1) {
      const r = await activate(u, res.body.id, { code: wrong });
      expectError(r, 422, ['code']);
      expect(r.body.attempts_left).toBe(left);
    }
    const refused = await activate(u, res.body.id, { code });
    expectError(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a pending factor not activated in 10 minutes is gone', async () => {
    const u = await newUser();
    const res = await enrol(u, { kind: 'voice', phone_number: uniquePhone('+44207') });
    const code = await outboxCode(u.id, res.body.id);
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: bankKeys.device(u.id, res.body.id),
        UpdateExpression: 'SET pendingUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await call('GET', devices(u), { token: u.token })).body).toEqual([]);
    expectError(await activate(u, res.body.id, { code }), 404);
  });

  it('at most 10 factors a user', async () => {
    const u = await newUser();
    for (let i = 0; i < 10; i += 1) expect((await enrol(u, { kind: 'push' })).status).toBe(201);
    expectError(await enrol(u, { kind: 'push' }), 409);
  });

  it('a push factor is activated by its device app, not by the user', async () => {
    const u = await newUser();
    const res = await enrol(u, { kind: 'push', name: 'My phone' });
    expect(res.body.activation.ticket).toMatch(/^pt_[A-Za-z0-9_-]{43}$/);
    expect(res.body.activation.expires_at).toBeGreaterThan(Date.now() / 1000);
    expectError(await activate(u, res.body.id, { code: '123456' }), 409);
  });
});

describe('recovery codes', () => {
  it('each approves a verification once; replacing them needs a step-up and retires the old ones', async () => {
    const u = await newUser();
    const otp = await firstOtp(u);
    const [first, second] = otp.recovery;
    const v1 = await start(u, otp.id);
    expect((await check(u, v1.body.id, { recovery_code: first.toUpperCase() })).body).toEqual({
      id: v1.body.id,
      status: 'approved',
    });
    const v2 = await start(u, otp.id);
    const reused = await check(u, v2.body.id, { recovery_code: first });
    expectError(reused, 422, ['recovery_code']);
    expect(reused.body.attempts_left).toBe(4);

    const path = `/api/users/${u.id}/recovery_codes`;
    expectError(await call('POST', path, { token: u.token }), 403);
    const replaced = await call('POST', path, {
      token: u.token,
      headers: { 'X-MFA-Verification': v1.body.id },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.recovery_codes).toHaveLength(10);
    expectError(await check(u, v2.body.id, { recovery_code: second }), 422, ['recovery_code']);
    expect((await check(u, v2.body.id, { recovery_code: replaced.body.recovery_codes[0] })).status).toBe(200);
  });
});

describe('factors enrolled before enrolment through the API', () => {
  it('a code-based push factor with no status keeps working as an active code factor', async () => {
    const u = await newUser();
    const { device } = await enroll(u, 'push'); // the admin CLI's enrolment: no status attribute
    const listed = await call('GET', devices(u), { token: u.token });
    expect(listed.body[0]).toMatchObject({ id: device.id, status: 'active', default: true });
    const started = await start(u, device.id);
    expect(started.body.number).toBeUndefined();
    const code = await outboxCode(u.id, started.body.id);
    expect((await check(u, started.body.id, { code })).status).toBe(200);
  });
});

describe('bad input', () => {
  it('names the field: kind, phone number, email address, code, credential, exactly one proof', async () => {
    const u = await newUser();
    expectError(await enrol(u, { kind: 'pager' }), 422, ['kind']);
    expectError(await enrol(u, { kind: 'sms', phone_number: '5551234' }), 422, ['phone_number']);
    expectError(await enrol(u, { kind: 'voice' }), 422, ['phone_number']);
    expectError(await enrol(u, { kind: 'email', email: 'not-an-address' }), 422, ['email']);
    expectError(await enrol(u, { kind: 'otp', secret: 'MINE' }), 422, ['secret']);
    const res = await enrol(u, { kind: 'otp' });
    expectError(await activate(u, res.body.id, { code: '12ab56' }), 422, ['code']);
    expectError(await activate(u, res.body.id, {}), 422, ['code', 'credential']);
    expectError(await activate(u, res.body.id, { credential: { id: 'x' } }), 422);
    expectError(await activate(u, 'dev_nope', { code: '123456' }), 404);
    const v = await call('GET', `/api/users/${u.id}/verifications/ver_aaaaaaaaaaaaaaaaaaaa`, {
      token: u.token,
    });
    expectError(v, 404);
    // Nothing was half-written: only the one pending otp factor.
    expect((await call('GET', devices(u), { token: u.token })).body).toHaveLength(1);
  });
});
