// The bench's load run: a bounded loopback burst across the three APIs (default 3,000 requests at
// concurrency 20; BENCH_LOAD_REQUESTS, BENCH_LOAD_CONCURRENCY), a mix of reads and writes a client
// would send. Prints the error count (a status other than the expected one, or no answer) and
// p50/p99 latency; returns the error count (the bench fails on any).
import { Agent, request } from 'node:http';
import type { BenchContext, BenchRequest } from './types.ts';
import { percentile } from './stats.ts';

interface Shot {
  name: string;
  expect: number;
  request: (i: number) => BenchRequest;
}

export async function loadRun(ctx: BenchContext, report?: (summary: string) => void): Promise<number> {
  const total = Number(process.env.BENCH_LOAD_REQUESTS ?? 3_000);
  const concurrency = Number(process.env.BENCH_LOAD_CONCURRENCY ?? 20);
  const user = await ctx.newUser('Load');
  const note = await ctx.http('POST', '/v1/notes', {
    token: user.token,
    body: { title: 'Load', content: '# Load' },
  });
  const transfer = await ctx.http('POST', '/api/transfers', {
    token: user.token,
    body: { amount: 100, currency: 'usd', destination: 'acct_load' },
  });
  const auth = { Authorization: `Bearer ${user.token}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const shots: Shot[] = [
    { name: 'GET /v1/me', expect: 200, request: () => ({ method: 'GET', path: '/v1/me', headers: auth }) },
    {
      name: 'GET /v1/notes/{noteId}',
      expect: 200,
      request: () => ({ method: 'GET', path: `/v1/notes/${note.body.id}`, headers: auth }),
    },
    {
      name: 'POST /v1/notes',
      expect: 200,
      request: (i) => ({
        method: 'POST',
        path: '/v1/notes',
        headers: json,
        body: JSON.stringify({ content: `load ${i}` }),
      }),
    },
    { name: 'GET /api/v1/news', expect: 200, request: () => ({ method: 'GET', path: '/api/v1/news' }) },
    {
      name: 'GET /api/v1/status/web-api',
      expect: 200,
      request: () => ({ method: 'GET', path: '/api/v1/status/web-api' }),
    },
    {
      name: 'GET /api/v1/news/{id} (bad id)',
      expect: 400,
      request: () => ({ method: 'GET', path: '/api/v1/news/abc' }),
    },
    {
      name: 'GET /api/transfers',
      expect: 200,
      request: () => ({ method: 'GET', path: '/api/transfers', headers: auth }),
    },
    {
      name: 'GET /api/transfers/{transferId}',
      expect: 200,
      request: () => ({ method: 'GET', path: `/api/transfers/${transfer.body.id}`, headers: auth }),
    },
    {
      name: 'POST /api/transfers',
      expect: 201,
      request: (i) => ({
        method: 'POST',
        path: '/api/transfers',
        headers: { ...json, 'Idempotency-Key': `load-${Date.now()}-${i}` },
        body: JSON.stringify({ amount: 100 + i, currency: 'eur', destination: 'acct_load' }),
      }),
    },
  ];

  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const send = (req: BenchRequest) =>
    new Promise<number>((resolve) => {
      const r = request(
        `${ctx.baseUrl}${req.path}`,
        { method: req.method, headers: req.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      r.on('error', () => resolve(0));
      r.end(req.body);
    });

  const latencies: number[] = [];
  const errors = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const shot = shots[i % shots.length];
      const t = performance.now();
      const status = await send(shot.request(i));
      latencies.push(performance.now() - t);
      if (status !== shot.expect)
        errors.set(`${shot.name} → ${status}`, (errors.get(`${shot.name} → ${status}`) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\nLoad (loopback, ${total} requests at concurrency ${concurrency} across Notes, News and Bank, ${shots.length} kinds)\n`,
  );
  const summary =
    `${errorCount} errors, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
    `${(total / seconds).toFixed(0)} requests/s`;
  console.log(`  ${summary}`);
  report?.(`${total} requests at concurrency ${concurrency} (${shots.length} kinds): ${summary}.`);
  for (const [what, n] of errors) console.log(`  error: ${what} x${n}`);
  return errorCount;
}
