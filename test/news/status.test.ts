// GET /api/v1/status/web-api, in process (counts flushed on every response: NEWS_COUNTER_FLUSH_MS=0):
// 2XX and 5XX of every News handler are counted in shared sharded counters, exactly: in a table of
// this file's own, every status read counts every response answered before it in this process (one
// container), a flush still on its way included; uptime from the stored start time; 503 with the
// offline body when the table is unreachable. Budget over HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getStatus } from '../../functions/news/get-status.ts';
import { handler as getTag } from '../../functions/news/get-tag.ts';
import { handler as getCsrf } from '../../functions/news/get-csrf-token.ts';
import { http } from '../support/http.ts';
import { invoke } from '../support/events.ts';
import { expectDocumented } from '../support/openapi.ts';
import { ensureTable } from '../../infra/local/services.ts';

process.env.NEWS_COUNTER_FLUSH_MS = '0';
const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
const status = async () => {
  const res = await invoke(getStatus, { method: 'GET', resource: '/api/v1/status/web-api' });
  expect(res.status).toBe(200);
  return res.body.response as { vg: boolean; uptime: number; errorsCount: number; requestsServed: number };
};
const withTable = async <T>(table: string, fn: () => Promise<T>): Promise<T> => {
  const saved = process.env.TABLE_NAME;
  process.env.TABLE_NAME = table;
  try {
    return await fn();
  } finally {
    process.env.TABLE_NAME = saved;
  }
};

const sharedTable = process.env.TABLE_NAME;
beforeAll(async () => {
  // Other test files answer News requests into the shared table's counters at the same time.
  const own = `status-${randomUUID().slice(0, 8)}`;
  if (process.env.LOCAL_DYNAMODB_ENDPOINT) await ensureTable(process.env.LOCAL_DYNAMODB_ENDPOINT, own);
  process.env.TABLE_NAME = own;
}, 120_000);
afterAll(() => {
  process.env.TABLE_NAME = sharedTable;
});
const internal = () => ({
  Origin: process.env.INTERNAL_EDGE_ORIGIN!,
  Host: process.env.INTERNAL_API_HOST!,
  Key: process.env.INTERNAL_API_KEY!,
});

describe('status', () => {
  it('counts every 2XX answered before it as requestsServed, exactly; uptime from the stored start', async () => {
    const before = await status();
    expect(before).toMatchObject({ vg: true, requestsServed: 0, errorsCount: 0 });
    expect(before.uptime).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 3; i += 1)
      expect(
        (
          await invoke(getTag, {
            method: 'GET',
            resource: '/api/v1/tags/{id}',
            pathParameters: { id: 'abc' },
          })
        ).status,
      ).toBe(400);
    await invoke(getTag, { method: 'GET', resource: '/api/v1/tags/{id}', pathParameters: { id: '424242' } }); // 404
    await invoke(getCsrf, { method: 'GET', resource: '/api/internal/v1/csrf' }); // 404
    const mid = await status();
    expect(mid.requestsServed).toBe(1); // the first status call; 4XX are not counted
    // Back to back, no pause: each read includes the previous status answer, whose flush may still
    // be on its way to the table when the next read starts.
    let served = mid.requestsServed;
    for (let i = 0; i < 10; i += 1) {
      const token = await invoke(getCsrf, {
        method: 'GET',
        resource: '/api/internal/v1/csrf',
        headers: internal(),
      });
      expect(token.status).toBe(200);
      const now = await status();
      served += 2; // the previous status answer and the token
      expect(now.requestsServed).toBe(served);
      expect(now.errorsCount).toBe(0);
    }
    const after = await status();
    expect(after.uptime).toBeGreaterThanOrEqual(before.uptime);
  });

  it('a 5XX is internalError and counted; an unreachable table makes status 503 with the offline body', async () => {
    const before = await status();
    const failed = await withTable('no-such-table', () =>
      invoke(getTag, { method: 'GET', resource: '/api/v1/tags/{id}', pathParameters: { id: '1' } }),
    );
    expect(failed).toMatchObject({ status: 500, body: { error: true, response: 'internalError' } });
    const offline = await withTable('no-such-table', () =>
      invoke(getStatus, { method: 'GET', resource: '/api/v1/status/web-api' }),
    );
    expect(offline.status).toBe(503);
    expect(offline.body).toEqual({
      error: true,
      response: { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 },
    });
    const after = await status(); // flushes what could not be flushed while the table was unreachable
    expect(after.errorsCount).toBe(before.errorsCount + 2); // the 500 and the offline 503
    expect(after.requestsServed).toBe(before.requestsServed + 1); // the status call before them
  });

  it('over HTTP: documented, within 3 DynamoDB requests', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await http('GET', '/api/v1/status/web-api');
      expectDocumented('news', 'GET', '/api/v1/status/web-api', res);
      expect(res.body).toMatchObject({ error: false, response: { vg: true } });
      if (local) expect(Number(res.headers.get('x-local-dynamo-requests'))).toBeLessThanOrEqual(3);
    }
  });
});
