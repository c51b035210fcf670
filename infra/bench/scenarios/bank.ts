import { randomInt } from 'node:crypto';
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
  const mfa = (await import('../../../lib/bank/wiring.ts')).fullMfa();
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
  // A factor admits 5 verification starts per 10 minutes, a number 5 codes an hour
  // (lib/bank/limits.ts): one factor, with a number of its own, per start.
  const phone = () => `+1555${String(randomInt(10_000_000)).padStart(7, '0')}`;
  const sms = async () => (await mfa.enroll({ userId: user.id, kind: 'sms', phone: phone() })).device.id;
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
  await mfa.enroll({ userId: listed.id, kind: 'sms', phone: phone() });
  await times(n, () => mfa.enroll({ userId: listed.id, kind: 'push' }));

  // A passkey verification and a push approval: one user each per call (a factor admits 5 starts
  // per 10 minutes, a user one pending push), set up through the API with a software authenticator
  // (test/support/software-authenticator.ts) and an EC P-256 device key (jose).
  const { createCredential, getAssertion } = await import('../../../test/support/software-authenticator.ts');
  const jose = await import('jose');
  const ceremony = { origin: ctx.baseUrl.replace('127.0.0.1', 'localhost') };
  const passkeyCalls = await times(n, async () => {
    const u = await ctx.newUser('Bench Bank Passkey');
    const enrolled = await ctx.http('POST', `/api/users/${u.id}/devices`, {
      token: u.token,
      body: { kind: 'device' },
    });
    const { response, credential } = createCredential(enrolled.body.activation.public_key, ceremony, {
      counter: 1,
    });
    await ctx.http('POST', `/api/users/${u.id}/devices/${enrolled.body.id}/activate`, {
      token: u.token,
      body: { credential: response },
    });
    const v = await ctx.http('POST', `/api/users/${u.id}/verifications`, {
      token: u.token,
      body: { device_id: enrolled.body.id },
    });
    return {
      user: u,
      id: v.body.id as string,
      credential: getAssertion(v.body.public_key, credential, ceremony),
    };
  });
  const pushCalls = await times(n, async () => {
    const u = await ctx.newUser('Bench Bank Push');
    const enrolled = await ctx.http('POST', `/api/users/${u.id}/devices`, {
      token: u.token,
      body: { kind: 'push' },
    });
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
    const activated = await ctx.http('POST', '/api/push/activations', {
      body: { ticket: enrolled.body.activation.ticket, public_key: await jose.exportJWK(publicKey) },
    });
    const deviceId = activated.body.device_id as string;
    const v = await ctx.http('POST', `/api/users/${u.id}/verifications`, {
      token: u.token,
      body: { device_id: deviceId },
    });
    const iat = Math.floor(Date.now() / 1000);
    const decision = await new jose.CompactSign(
      new TextEncoder().encode(
        JSON.stringify({ sub: v.body.id, iat, exp: iat + 60, decision: 'approve', number: v.body.number }),
      ),
    )
      .setProtectedHeader({ alg: 'ES256', kid: deviceId })
      .sign(privateKey);
    const jwt = await new jose.SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: deviceId })
      .setSubject(deviceId)
      .setIssuedAt()
      .setExpirationTime(iat + 290)
      .sign(privateKey);
    return { id: v.body.id as string, jwt, decision };
  });

  return [
    {
      route: 'POST /api/users/{userId}/verifications/{verificationId}',
      label: 'passkey',
      budget: 4,
      expectStatus: 200,
      request: (i) => ({
        method: 'POST',
        path: `/api/users/${passkeyCalls[i].user.id}/verifications/${passkeyCalls[i].id}`,
        headers: jsonHeaders(passkeyCalls[i].user.token),
        body: json({ credential: passkeyCalls[i].credential }),
      }),
    },
    {
      route: 'POST /api/push/challenges/{verificationId}',
      label: 'approve',
      budget: 6,
      expectStatus: 200,
      request: (i) => ({
        method: 'POST',
        path: `/api/push/challenges/${pushCalls[i].id}`,
        headers: jsonHeaders(pushCalls[i].jwt),
        body: json({ response: pushCalls[i].decision }),
      }),
    },
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
      // The factor; the code's destination and stack sends counted (one UpdateItem each); the
      // verification's transaction.
      route: 'POST /api/users/{userId}/verifications',
      budget: 5,
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
