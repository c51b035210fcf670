// Bad input on every Bank route: the REST error body, the right 4xx, the offending fields named,
// never a 5xx.
import { describe, expect, it } from 'vitest';
import { newUser } from '../support/identity.ts';
import { call, enroll, expectError } from './helpers.ts';

describe('bad input', () => {
  it('POST /api/transfers', async () => {
    const u = await newUser();
    expectError(await call('POST', '/api/transfers', { token: u.token, body: {} }), 422, [
      'amount',
      'currency',
      'destination',
    ]);
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: { amount: 0, currency: 'ABC', destination: '', extra: 1, also: 2 },
      }),
      422,
      ['amount', 'currency', 'destination', 'extra', 'also'],
    );
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: { amount: 1.5, currency: 'usd', destination: 'x'.repeat(256), description: 'd'.repeat(1001) },
      }),
      422,
      ['amount', 'destination', 'description'],
    );
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: { amount: 100_000_000, currency: 'usd', destination: 'x' },
      }),
      422,
      ['amount'],
    );
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: { amount: 1, currency: 'usd', destination: 'x', metadata: tooMany },
      }),
      422,
      ['metadata'],
    );
    const res = await call('POST', '/api/transfers', {
      token: u.token,
      body: {
        amount: 1,
        currency: 'usd',
        destination: 'x',
        metadata: { 'a[b]': 'v', ['k'.repeat(41)]: 'v', ok: 'v'.repeat(501), n: 5 },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.every((e: { field: string }) => e.field.startsWith('metadata'))).toBe(true);
    expect(res.body.errors.length).toBeGreaterThanOrEqual(4);
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        raw: '{"amount":',
        headers: { 'Content-Type': 'application/json' },
      }),
      422,
      ['body'],
    );
    expect(
      (
        await call('POST', '/api/transfers', {
          token: u.token,
          raw: 'amount=1',
          headers: { 'Content-Type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expectError(
      await call('POST', '/api/transfers', { body: { amount: 1, currency: 'usd', destination: 'x' } }),
      401,
    );
  });

  it('GET, PUT and POST /api/transfers/{transferId}', async () => {
    const u = await newUser();
    expectError(await call('GET', '/api/transfers/not-an-id', { token: u.token }), 404);
    expectError(await call('PUT', '/api/transfers/not-an-id', { token: u.token, body: {} }), 404);
    const { body: t } = await call('POST', '/api/transfers', {
      token: u.token,
      body: { amount: 5, currency: 'jpy', destination: 'x' },
    });
    expectError(
      await call('PUT', `/api/transfers/${t.id}`, { token: u.token, body: { description: 5, metadata: [] } }),
      422,
      ['description', 'metadata'],
    );
    expectError(
      await call('POST', `/api/transfers/${t.id}`, {
        token: u.token,
        body: { currency: 'usd', destination: 'y', note: 'z' },
      }),
      422,
      ['currency', 'destination', 'note'],
    );
    expectError(
      await call('POST', `/api/transfers/${t.id}`, {
        token: u.token,
        body: { description: 'x' },
        headers: { 'Idempotency-Key': '' },
      }),
      400,
      ['Idempotency-Key'],
    );
    expectError(await call('GET', `/api/transfers/${t.id}`), 401);
  });

  it('GET /api/transfers', async () => {
    const u = await newUser();
    expectError(await call('GET', '/api/transfers?q=', { token: u.token }), 400, ['q']);
    expectError(
      await call('GET', '/api/transfers?destination=&ending_before=tr_1', { token: u.token }),
      400,
      ['destination', 'ending_before'],
    );
  });

  it('the factor and verification routes', async () => {
    const u = await newUser();
    const admin = await newUser('Admin', { admin: true });
    const { device } = await enroll(u, 'sms');
    const base = `/api/users/${u.id}`;
    expectError(await call('GET', `${base}/devices`), 401);
    expectError(
      await call('DELETE', `${base}/devices/bogus`, {
        token: u.token,
        headers: { 'X-MFA-Verification': 'bogus' },
      }),
      403,
    );
    expectError(await call('POST', `${base}/verifications`, { token: u.token, body: {} }), 422, [
      'device_id',
    ]);
    expectError(
      await call('POST', `${base}/verifications`, { token: u.token, body: { device_id: 'dev_x', x: 1 } }),
      422,
      ['device_id', 'x'],
    );
    expectError(
      await call('POST', `${base}/verifications`, {
        token: u.token,
        body: { device_id: 'dev_000000000000000000zz' },
      }),
      422,
      ['device_id'],
    );
    const started = await call('POST', `${base}/verifications`, {
      token: u.token,
      body: { device_id: device.id },
    });
    const verify = `${base}/verifications/${started.body.id}`;
    expectError(await call('POST', verify, { token: u.token, body: {} }), 422, [
      'code',
      'credential',
      'mfa_token',
      'recovery_code',
    ]);
    expectError(
      await call('POST', verify, { token: u.token, body: { code: '123456', mfa_token: 'mfa_x' } }),
      422,
      ['code', 'mfa_token'],
    );
    expectError(await call('POST', verify, { token: u.token, body: { code: '12ab' } }), 422, ['code']);
    expectError(
      await call('POST', `${base}/verifications/ver_bogus`, { token: u.token, body: { code: '123456' } }),
      404,
    );
    expectError(
      await call('POST', `${base}/mfa_token`, {
        token: admin.token,
        body: { expires_in: 259_201, reusable: 'yes', scope: 'all' },
      }),
      422,
      ['expires_in', 'reusable', 'scope'],
    );
    expectError(
      await call('POST', `${base}/mfa_token`, { token: admin.token, body: { expires_in: 0 } }),
      422,
      ['expires_in'],
    );
  });
});
