// Per-token rate limits of the Notes API: every response carries X-RateLimit-UserLimit, -UserRemaining
// and -UserReset; over the limit, 429 with Retry-After; the official client's TooManyRequestsError
// shows the numbers. The tests' runner has a high default limit (test/support/global-setup.ts); the
// tokens here carry a small limit of their own, so no other test is affected.
import { API } from '@hackmd/api';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import { baseUrl, CLIENT_TIMEOUT_MS } from '../support/http.ts';
import { newUser } from '../support/identity.ts';
import { call, expectBudget, local } from './helpers.ts';

const limitedToken = async (rateLimit: number) =>
  fullIdentity().issueToken((await newUser('Rate Limited')).id, { rateLimit });
const header = (res: { headers: Headers }, name: string) => Number(res.headers.get(name));

describe('per-token rate limit', () => {
  it("every Notes response, errors included, carries the token's window", async () => {
    const me = await newUser('Rate Headers');
    const now = Math.floor(Date.now() / 1000);
    const ok = await call('GET', '/v1/me', { token: me.token });
    expect(header(ok, 'x-ratelimit-userlimit')).toBe(config.rateLimit);
    expect(header(ok, 'x-ratelimit-userremaining')).toBeLessThanOrEqual(config.rateLimit - 1);
    const reset = header(ok, 'x-ratelimit-userreset');
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(now + config.rateWindowSeconds + 1);
    const missing = await call('GET', '/v1/notes/ZZZZZZZZZZ', { token: me.token });
    expect(missing.status).toBe(404);
    expect(header(missing, 'x-ratelimit-userremaining')).toBe(header(ok, 'x-ratelimit-userremaining') - 1);
    // authentication and counting are one request: GET /v1/me stays within its budget
    expectBudget(await call('GET', '/v1/me', { token: me.token }), 2);
    if (local) {
      // a fresh token's first call also starts its window: one UpdateItem more, once per window
      const fresh = await fullIdentity().issueToken(me.id);
      const used = async () =>
        Number((await call('GET', '/v1/me', { token: fresh })).headers.get('x-local-dynamo-requests'));
      expect([await used(), await used()]).toEqual([3, 2]);
    }
  });

  it('counts exactly under 30 concurrent calls with one token: 10 pass, 20 get 429 with Retry-After', async () => {
    const token = await limitedToken(10);
    const results = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/v1/notes', { token })));
    const passed = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(passed).toHaveLength(10);
    expect(refused).toHaveLength(20);
    expect(passed.map((r) => header(r, 'x-ratelimit-userremaining')).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    for (const r of refused) {
      expect(r.body).toMatchObject({ code: 42900, message: 'Too many requests' });
      expect(header(r, 'x-ratelimit-userlimit')).toBe(10);
      expect(header(r, 'x-ratelimit-userremaining')).toBe(0);
      const retryAfter = header(r, 'retry-after');
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(config.rateWindowSeconds);
      expect(header(r, 'x-ratelimit-userreset') - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(
        retryAfter + 1,
      );
    }
    // other tokens are not affected
    expect((await call('GET', '/v1/notes', { token: (await newUser()).token })).status).toBe(200);
  });

  it("the official client's TooManyRequestsError shows the limit, what is left and the reset", async () => {
    const token = await limitedToken(2);
    const api = new API(token, `${baseUrl()}/v1`, {
      wrapResponseErrors: true,
      timeout: CLIENT_TIMEOUT_MS,
      retryConfig: { maxRetries: 3, baseDelay: 10 },
    });
    await api.getMe();
    await api.getNoteList();
    const error = await api.getHistory().then(
      () => undefined,
      (e: unknown) => e,
    );
    // the client does not export the class; it is the one its 429 handler builds
    expect((error as Error).constructor.name).toBe('TooManyRequestsError');
    const tooMany = error as { code: number; userLimit: number; userRemaining: number; resetAfter: number };
    expect(tooMany.code).toBe(429);
    expect(tooMany.userLimit).toBe(2);
    expect(tooMany.userRemaining).toBe(0);
    expect(tooMany.resetAfter).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });
});
