// Dependencies fail fast. With DynamoDB Local paused (SIGSTOP: connections are
// accepted, nothing answers), every route of template.yaml answers within 3 s with 503 in its API's
// dialect and Retry-After; the News status answers its offline body; routes that need no table
// (CSRF, validation failures, a missing token, a wrong method) answer without waiting for it, even
// though every News response is counted (NEWS_COUNTER_FLUSH_MS=0: a flush is due after each one).
// After SIGCONT, once DynamoDB Local answers again, the product does too (no breaker keeps
// failing). Every handler of template.yaml is invoked in this
// process with API Gateway events, against a DynamoDB Local of its own (test/faults/isolated-stack.ts).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, ROOT } from '../../infra/local/template.ts';
import type { EventInput } from '../support/events.ts';
import { busyFactor } from '../support/processes.ts';
import { startIsolatedDynamo, type IsolatedDynamo } from './isolated-stack.ts';

const WITHIN_MS = 3_000;
const CONCURRENCY = 2;
/** A call that waited for DynamoDB takes at least 2 attempts x 0.6 s (lib/data/fail-fast.ts). */
const NO_WAIT_MS = 1_200;
/** A call that waited for DynamoDB at all took at least one connection timeout (0.4 s). */
const WAITED_MS = 400;

let stack: IsolatedDynamo;
let paused = false;
const ids: Record<string, string> = {};
let token = '';
let adminToken = '';

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<{ statusCode: number; headers?: Record<string, unknown>; body?: string }>;
const handlers = new Map<string, Handler>();
let invokeEvent: typeof import('../support/events.ts').invoke;

/** Invokes the route's handler (as API Gateway would) and times it. */
async function call(method: string, resource: string, opts: Omit<EventInput, 'method' | 'resource'> = {}) {
  const route =
    listRoutes().find((r) => r.path === resource && r.method === method) ??
    listRoutes().find((r) => r.path === resource && r.method === 'ANY')!;
  let handler = handlers.get(route.functionId);
  if (!handler) {
    handler = (await import(join(ROOT, route.entry)))[route.handler] as Handler;
    handlers.set(route.functionId, handler);
  }
  const started = performance.now();
  const res = await invokeEvent(handler, { method, resource, ...opts });
  return {
    status: res.status,
    headers: new Headers(res.headers),
    body: res.body,
    ms: performance.now() - started,
  };
}

const pause = () => {
  process.kill(stack.javaPid, 'SIGSTOP');
  paused = true;
};
const resume = () => {
  process.kill(stack.javaPid, 'SIGCONT');
  paused = false;
};

const BODIES: Record<string, unknown> = {
  'POST /v1/notes': { title: 'x', content: 'y' },
  'PATCH /v1/notes/{noteId}': { content: 'z' },
  'POST /v1/teams/{teamPath}/notes': { content: 'y' },
  'PATCH /v1/teams/{teamPath}/notes/{noteId}': { content: 'z' },
  'POST /v1/notes/{noteId}/versions': { name: 'v' },
  'PATCH /v1/notes/{noteId}/versions': { base: 'version:01938a6e-7a10-7c3e-9f5b-2a1d4c6e8f00', name: 'v' },
  'POST /v1/notes/{noteId}/comments': { body: 'c' },
  'PATCH /v1/notes/{noteId}/comments/{commentId}': { body: 'c' },
  'POST /api/transfers': { amount: 100, currency: 'usd', destination: 'acct_1' },
  'PUT /api/transfers/{transferId}': { description: 'd' },
  'POST /api/transfers/{transferId}': { description: 'd' },
  'POST /api/users/{userId}/verifications': { device_id: 'dev' },
  'POST /api/users/{userId}/verifications/{verificationId}': { code: '123456' },
  'POST /api/users/{userId}/mfa_token': {},
  'POST /api/users/{userId}/devices': { kind: 'otp', name: 'Phone' },
  'POST /api/users/{userId}/devices/{deviceId}/activate': { code: '123456' },
  'POST /api/users/{userId}/recovery_codes': {},
};

/**
 * The push device app's routes: no API token, their credential is read from the table (the
 * activation's ticket; the device key a JWT names), so well-formed ones wait for it too.
 */
const device = await generateKeyPair('ES256');
const deviceId = `dev_${'0'.repeat(20)}`;
const deviceJwt = await new SignJWT({})
  .setProtectedHeader({ alg: 'ES256', kid: deviceId })
  .setSubject(deviceId)
  .setIssuedAt()
  .setExpirationTime('2m')
  .sign(device.privateKey);
const decision = await new CompactSign(
  new TextEncoder().encode(
    JSON.stringify({ sub: `ver_${'0'.repeat(20)}`, iat: 0, exp: 60, decision: 'approve', number: 42 }),
  ),
)
  .setProtectedHeader({ alg: 'ES256', kid: deviceId })
  .sign(device.privateKey);
const { kty, crv, x, y } = await exportJWK(device.publicKey);
BODIES['POST /api/push/activations'] = { ticket: `pt_${'A'.repeat(43)}`, public_key: { kty, crv, x, y } };
BODIES['POST /api/push/challenges/{verificationId}'] = { response: decision };
const DEVICE_ROUTES = new Set(['GET /api/push/challenges', 'POST /api/push/challenges/{verificationId}']);

const QUERIES: Record<string, Record<string, string>> = {
  'GET /v1/notes/{noteId}/versions/compare': { base: 'note_content', target: 'note_content' },
  'GET /v1/search': { q: 'word' },
};
/** Version and comment ids are UUIDs (any other id is a 400 that never reaches the table). */
ids.versionId = '01938a6e-7a10-7c3e-9f5b-2a1d4c6e8f00';
ids.commentId = '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22';

/** Every operation of the template (not the 405 fallbacks), as a well-formed request. */
const operations = () =>
  listRoutes()
    .filter((r) => r.method !== 'ANY')
    .map((r) => {
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      // A permalink page's address is an @owner (anything else is a 404 that needs no table).
      const owner = (name: string) => name === 'address' && names.includes('permalink');
      const pathParameters = Object.fromEntries(
        names.map((name) => [name, ids[name] ?? (owner(name) ? '@someone' : '1')]),
      );
      const key = `${r.method} ${r.path}`;
      return {
        key,
        api: r.apiId,
        functionId: r.functionId,
        method: r.method,
        resource: r.path,
        pathParameters,
        body: BODIES[key],
        query: QUERIES[key],
      };
    });
const send = (op: ReturnType<typeof operations>[number]) =>
  call(op.method, op.resource, {
    ...(DEVICE_ROUTES.has(op.key)
      ? { headers: { Authorization: `Bearer ${deviceJwt}` } }
      : { token: adminToken }),
    pathParameters: op.pathParameters,
    body: op.body,
    query: op.query,
  });

/** Retries `fn` while DynamoDB Local (just started, its JIT cold, on a busy machine) is slow. */
async function eventually<T>(fn: () => Promise<T>, ok: (value: T) => boolean = () => true): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const value = await fn();
      if (ok(value) || attempt === 20) return value;
    } catch (err) {
      if ((err as { kind?: string }).kind !== 'unavailable' || attempt === 20) throw err;
    }
  }
}

/** Resolves once DynamoDB Local answers a request (ListTables through a client without a timeout). */
async function dynamoAnswers(): Promise<void> {
  const { DynamoDBClient, ListTablesCommand } = await import('@aws-sdk/client-dynamodb');
  const { localClientConfig } = await import('../../infra/local/services.ts');
  const client = new DynamoDBClient(localClientConfig(process.env.LOCAL_DYNAMODB_ENDPOINT!));
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
  } finally {
    client.destroy();
  }
}

/**
 * The product's answer once the table answers again. A 503 that waited for the table (a machine so
 * busy that DynamoDB Local is still slower than the deployed 0.6 s timeout) is asked again; one that
 * did not wait, or 503s that do not end, fail.
 */
async function recovered(fn: () => ReturnType<typeof call>): ReturnType<typeof call> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await fn();
    if (res.status !== 503 || attempt === 10) return res;
    expect(res.ms, `a 503 in ${res.ms.toFixed(0)} ms, without waiting for the table`).toBeGreaterThanOrEqual(
      WAITED_MS,
    );
  }
}

beforeAll(async () => {
  // The deployed timeout (lib/config.ts's default: the variable unset), not the local stack's patient one.
  stack = await startIsolatedDynamo({
    NEWS_COUNTER_FLUSH_MS: '0',
    LOG_LEVEL: 'FATAL',
    DYNAMODB_TIMEOUT_MS: '',
  });
  invokeEvent = (await import('../support/events.ts')).invoke;
  const identity = (await import('../../lib/identity/wiring.ts')).fullIdentity();
  // A fresh path per attempt: an attempt that timed out may have committed.
  const path = () => `pause-${randomUUID().slice(0, 12)}`;
  const user = await eventually(() => identity.createUser({ name: 'Pause', userPath: path() }));
  await eventually(() => identity.grantRole(user.id, 'admin'));
  token = await eventually(() => identity.issueToken(user.id));
  adminToken = token;
  const team = await eventually(() =>
    identity.createTeam({ ownerId: user.id, path: path(), name: 'Pause', visibility: 'private' }),
  );
  ids.userId = user.id;
  ids.teamPath = team.path;
  const created = (res: { status: number }) => res.status < 300;
  ids.noteId = (
    await eventually(() => call('POST', '/v1/notes', { token, body: { content: 'n' } }), created)
  ).body.id;
  ids.transferId = (
    await eventually(
      () => call('POST', '/api/transfers', { token, body: BODIES['POST /api/transfers'] }),
      created,
    )
  ).body.id;
  // Every handler loaded, the SDK connection open and the error path run once, as in a running
  // service: the measured pause below is about timeouts, not first-run compilation.
  for (const op of operations())
    await eventually(
      () => send(op),
      (res) => res.status !== 503,
    );
  pause();
  await Promise.all(operations().map(send));
  resume();
  expect((await eventually(() => call('GET', '/v1/me', { token }), created)).status).toBe(200);
}, 300_000);

afterAll(async () => {
  if (paused) resume();
  await stack?.stop();
}, 60_000);

describe('DynamoDB unresponsive (SIGSTOP)', () => {
  it('every route: 503 in its dialect with Retry-After within 3 s; status offline; table-free routes do not wait; SIGCONT: back', async () => {
    // The bounds hold on a machine with spare cores; on a crowded one they stretch (busyFactor).
    const stretch = busyFactor();
    const within = WITHIN_MS * stretch;
    const noWait = NO_WAIT_MS * stretch;
    pause();
    // No table needed: a validation failure, the CSRF route, a missing token, a wrong method.
    const internal = {
      Origin: process.env.INTERNAL_EDGE_ORIGIN!,
      Host: process.env.INTERNAL_API_HOST!,
      Key: process.env.INTERNAL_API_KEY!,
    };
    const quick = [
      ['News 400', await call('GET', '/api/v1/news/{id}', { pathParameters: { id: 'abc' } }), 400],
      [
        'News 400 again (a counter flush is due after every response)',
        await call('GET', '/api/v1/tags/{id}', { pathParameters: { id: '0' } }),
        400,
      ],
      ['CSRF token', await call('GET', '/api/internal/v1/csrf', { headers: internal }), 200],
      ['Notes without a token', await call('GET', '/v1/me'), 401],
      ['Bank without a token', await call('POST', '/api/transfers', { body: {} }), 401],
      ['wrong method', await call('DELETE', '/api/v1/news'), 405],
    ] as const;
    for (const [what, res, status] of quick) {
      expect(res.status, what).toBe(status);
      expect(res.ms, `${what}: ${res.ms.toFixed(0)} ms (bound ${noWait.toFixed(0)})`).toBeLessThan(noWait);
    }
    console.log(
      `[faults] table-free routes with DynamoDB paused: ${quick.map(([w, r]) => `${w} ${r.ms.toFixed(0)} ms`).join(', ')}`,
    );

    const ops = operations();
    // A few at a time, as one container's worth of traffic; all of them at once measures the CPU.
    const results: Awaited<ReturnType<typeof call>>[] = [];
    for (let i = 0; i < ops.length; i += CONCURRENCY) {
      const batch = ops.slice(i, i + CONCURRENCY);
      results.push(...(await Promise.all(batch.map(send))));
    }
    const slowest = Math.max(...results.map((r) => r.ms));
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    console.log(
      `[faults] ${ops.length} routes with DynamoDB paused: fastest ${times[0].toFixed(0)} ms, ` +
        `median ${times[times.length >> 1].toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms ` +
        `(${ops
          .map((op, i) => [op.key, results[i].ms] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
          .join(', ')})`,
    );
    ops.forEach((op, i) => {
      const res = results[i];
      const what = `${op.key} → ${res.status} in ${res.ms.toFixed(0)} ms: ${JSON.stringify(res.body).slice(0, 200)}`;
      expect(res.ms, `${what} (bound ${within.toFixed(0)} ms)`).toBeLessThan(within);
      if (op.key === 'GET /api/internal/v1/csrf' || op.key === 'GET /_page/{asset}') {
        expect(res.status, what).toBe(404);
        return;
      } // not the internal edge, or no such stylesheet: no table
      expect(res.status, what).toBe(503);
      expect(Number(res.headers.get('retry-after')), what).toBeGreaterThan(0);
      if (op.key === 'GET /api/v1/status/web-api') {
        expect(res.body, what).toEqual({
          error: true,
          response: { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 },
        });
      } else if (op.functionId === 'NotesGetPageFunction') {
        // A note page answers a browser (the event's Accept names text/html) in HTML, as its 404 does.
        expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
        expect(String(res.body), what).toContain('Service unavailable');
      } else if (op.api === 'NewsApi') {
        expect(res.body, what).toEqual({ error: true, response: 'serviceUnavailable' });
      } else {
        expect(res.body, what).toMatchObject({
          code: 50300,
          message: 'Service unavailable',
          description: expect.any(String),
        });
      }
    });

    resume();
    // Recovery, without betting on how fast the JVM wakes: first DynamoDB Local itself answers (a
    // client of the test's own, no timeout), then the product must answer too. A 503 that did not
    // wait for the table (something remembered the failure: a breaker, a poisoned client) fails.
    await dynamoAnswers();
    const me = await recovered(() => call('GET', '/v1/me', { token }));
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect((await recovered(() => call('GET', '/api/v1/status/web-api'))).body).toMatchObject({
      error: false,
      response: { vg: true },
    });
    const transfer = await recovered(() =>
      call('GET', '/api/transfers/{transferId}', { token, pathParameters: { transferId: ids.transferId } }),
    );
    expect(transfer.status).toBe(200);
  }, 300_000);
});
