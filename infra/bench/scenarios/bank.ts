import pMap from 'p-map';
import type { BenchContext, BenchRoute, BenchScenarios } from '../types.ts';

/** Setup calls in flight at once: DynamoDB Local accepts a few connections at a time, not hundreds. */
const SETUP_CONCURRENCY = 8;
const times = <T>(n: number, make: (i: number) => Promise<T>) =>
  pMap(
    Array.from({ length: n }, (_, i) => i),
    make,
    { concurrency: SETUP_CONCURRENCY },
  );

const json = (value: unknown) => JSON.stringify(value);
const jsonHeaders = (token: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  ...extra,
});

/** Bank API routes for npm run bench, with their DynamoDB-request budgets (self calls). */
export const scenarios: BenchScenarios = async (ctx: BenchContext): Promise<BenchRoute[]> => {
  const mfa = (await import('../../../lib/bank/wiring.ts')).mfa();
  const user = await ctx.newUser('Bench Bank');
  const auth = { Authorization: `Bearer ${user.token}` };
  const n = ctx.iterations;
  const created = await times(Math.max(n, 20), (i) =>
    ctx.http('POST', '/api/transfers', {
      token: user.token,
      body: { amount: 100 + i, currency: 'eur', destination: `acct_${i}`, metadata: { i: String(i) } },
    }),
  );
  const ids: string[] = created.map((r) => r.body.id);
  // A factor admits 5 verification starts per 10 minutes (lib/bank/limits.ts): one factor per start.
  const sms = async () =>
    (await mfa.enroll({ userId: user.id, kind: 'sms', phone: '+15550000000' })).device.id;
  const startDevices = await times(n, sms);

  // Verifications to verify and factors to delete, each with its own step-up.
  const pending = async (deviceId: string) =>
    (
      await ctx.http('POST', `/api/users/${user.id}/verifications`, {
        token: user.token,
        body: { device_id: deviceId },
      })
    ).body.id as string;
  const codeOf = async (verificationId: string) =>
    (await mfa.outbox(user.id)).find((e) => e.verificationId === verificationId)!.code;
  const toVerify = await times(n, async () => {
    const id = await pending(await sms());
    return { id, code: await codeOf(id) };
  });
  const deletions = await times(n, async () => {
    const device = (await mfa.enroll({ userId: user.id, kind: 'push' })).device.id;
    const v = await pending(device);
    await ctx.http('POST', `/api/users/${user.id}/verifications/${v}`, {
      token: user.token,
      body: { code: await codeOf(v) },
    });
    return { device, verification: v };
  });
  const admin = await ctx.newUser('Bench Bank Admin', { admin: true });
  // The listing's user holds one SMS factor and one push factor per call, as this bench's user did
  // before the MFA limits gave each start its own factor: listings stay comparable across commits.
  const listed = await ctx.newUser('Bench Bank Devices');
  await mfa.enroll({ userId: listed.id, kind: 'sms', phone: '+15550000000' });
  await times(n, () => mfa.enroll({ userId: listed.id, kind: 'push' }));

  return [
    {
      route: 'POST /api/transfers',
      label: 'Idempotency-Key',
      budget: 5,
      writeUnits: 6,
      expectStatus: 201,
      request: (i) => ({
        method: 'POST',
        path: '/api/transfers',
        headers: jsonHeaders(user.token, { 'Idempotency-Key': `bench-${Date.now()}-${i}` }),
        body: json({ amount: 1000 + i, currency: 'usd', destination: 'acct_bench' }),
      }),
    },
    {
      route: 'POST /api/transfers',
      budget: 5,
      writeUnits: 5,
      expectStatus: 201,
      request: (i) => ({
        method: 'POST',
        path: '/api/transfers',
        headers: jsonHeaders(user.token),
        body: json({ amount: 2000 + i, currency: 'usd', destination: 'acct_bench' }),
      }),
    },
    {
      route: 'GET /api/transfers',
      budget: 2,
      expectStatus: 200,
      request: () => ({ method: 'GET', path: '/api/transfers', headers: auth }),
    },
    {
      route: 'GET /api/transfers/{transferId}',
      budget: 2,
      expectStatus: 200,
      request: (i) => ({ method: 'GET', path: `/api/transfers/${ids[i % ids.length]}`, headers: auth }),
    },
    {
      route: 'PUT /api/transfers/{transferId}',
      budget: 4,
      expectStatus: 200,
      request: (i) => ({
        method: 'PUT',
        path: `/api/transfers/${ids[i % ids.length]}`,
        headers: jsonHeaders(user.token),
        body: json({ description: `put ${i}` }),
      }),
    },
    {
      route: 'POST /api/transfers/{transferId}',
      budget: 4,
      expectStatus: 200,
      request: (i) => ({
        method: 'POST',
        path: `/api/transfers/${ids[i % ids.length]}`,
        headers: jsonHeaders(user.token, { 'Idempotency-Key': `bench-upd-${Date.now()}-${i}` }),
        body: json({ metadata: { step: String(i) } }),
      }),
    },
    {
      route: 'GET /api/users/{userId}/devices',
      budget: 2,
      expectStatus: 200,
      request: () => ({
        method: 'GET',
        path: `/api/users/${listed.id}/devices`,
        headers: { Authorization: `Bearer ${listed.token}` },
      }),
    },
    {
      route: 'DELETE /api/users/{userId}/devices/{deviceId}',
      budget: 2,
      expectStatus: 204,
      request: (i) => ({
        method: 'DELETE',
        path: `/api/users/${user.id}/devices/${deletions[i].device}`,
        headers: { ...auth, 'X-MFA-Verification': deletions[i].verification },
      }),
    },
    {
      route: 'POST /api/users/{userId}/verifications',
      budget: 3,
      expectStatus: 201,
      request: (i) => ({
        method: 'POST',
        path: `/api/users/${user.id}/verifications`,
        headers: jsonHeaders(user.token),
        body: json({ device_id: startDevices[i] }),
      }),
    },
    {
      route: 'POST /api/users/{userId}/verifications/{verificationId}',
      budget: 4,
      expectStatus: 200,
      request: (i) => ({
        method: 'POST',
        path: `/api/users/${user.id}/verifications/${toVerify[i].id}`,
        headers: jsonHeaders(user.token),
        body: json({ code: toVerify[i].code }),
      }),
    },
    {
      route: 'POST /api/users/{userId}/mfa_token',
      budget: 3,
      expectStatus: 201,
      request: () => ({
        method: 'POST',
        path: `/api/users/${user.id}/mfa_token`,
        headers: jsonHeaders(admin.token),
        body: json({ expires_in: 3600 }),
      }),
    },
  ];
};
