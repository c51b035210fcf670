// npm run bench: drives every route of template.yaml through the local runner (own in-memory
// DynamoDB Local + S3 emulator) and prints, per route, DynamoDB requests per call, the write and read
// units AWS would bill (priced from the items each request touches: infra/bench/biller.ts,
// infra/bench/billing.ts; DynamoDB Local's own capacity units misprice transactions and are shown
// apart), p50/p99 latency; and per function the
// cold start against its floor (infra/bench/coldstart.ts): bundle size, load time, peak memory.
// Exit code 1 when a route exceeds its DynamoDB budget (requests or billed units) or returns an
// unexpected status, or a function
// goes over 1.3× its floor. `-- --cold-only` runs the cold-start part alone (no stack needed);
// `-- --floor-builds` measures the floors built each way a Lambda can be built (infra/bench/floor-builds.ts);
// `-- --search-engines [--notes N]` compares full-text engines (infra/bench/search-engines.ts);
// `-- --search [--notes N]` searches one workspace of 10,000 notes (infra/bench/search.ts);
// `-- --live` live editing alone (infra/bench/live.ts; a full run includes it; `-- --live-cost` its costs only);
// `-- --data-path` what the Notes authentication's requests alone cost a cold start (infra/bench/data-path.ts);
// `-- --api notes --route "GET /{"` only the routes whose "METHOD /path" contains that (the note pages).
import { pipelineCost } from './webhook-cost.ts';
import { COST_HEAD, CostCollector, costRows, PRICES } from './cost.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { startRunner } from '../local/runner.ts';
import { freePort } from '../local/services.ts';
import { functionEnvironment, startLocalStack } from '../local/stack.ts';
import { listRoutes, loadTemplate } from '../local/template.ts';
import { coldStart, coldStartTable, TARGETS } from './coldstart.ts';
import { loadRun } from './load.ts';
import { startBilling } from './biller.ts';
import type { BenchContext, BenchRoute } from './types.ts';
import { percentile, table } from './stats.ts';
import { type RunFigures, writeDocs } from './report.ts';
import { cpus, loadavg } from 'node:os';

const USAGE = `npm run bench [-- options]: every route's DynamoDB requests, billed units, latency and cost;
each function's cold start against its floor. Options:
  --iterations N        measured calls per route (default 30, BENCH_ITERATIONS)
  --api notes|news|bank only that API's routes;  --route TEXT  only routes whose "METHOD /path" has TEXT
  --cold-only           cold starts alone (no stack);  --skip-bundles  no cold starts
  --live                live editing alone;  --live-cost  its cost figures only (no latency, revocation)
  --data-path           the Notes authentication's requests
  --search [--notes N]  one workspace of 10,000 notes;  --search-engines  full-text engines compared
  --floor-builds        the floors built each way;  --baseline DIR  cold starts against another checkout
  --clock cpu|wall      the cold-start ratios' clock;  --write-docs [--note TEXT]  README and docs/benchmarks.md`;
if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: process.env.BENCH_ITERATIONS ?? '30' },
    api: { type: 'string' },
    'skip-bundles': { type: 'boolean', default: false },
    'cold-only': { type: 'boolean', default: false },
    /** Write the run's figures into README.md and docs/benchmarks.md (infra/bench/report.ts). */
    'write-docs': { type: 'boolean', default: false },
    /** Said beside the written figures: the machine's state (e.g. "2 cores shared, load 8"). */
    note: { type: 'string' },
    /** Another checkout (with node_modules): each function's cold start against that build too. */
    baseline: { type: 'string' },
    /** The cold-start ratios' clock: cpu (default; the sample's CPU time) or wall. */
    clock: { type: 'string', default: 'cpu' },
    'floor-builds': { type: 'boolean', default: false },
    'data-path': { type: 'boolean', default: false },
    'search-engines': { type: 'boolean', default: false },
    search: { type: 'boolean', default: false },
    /** Live editing alone (infra/bench/live.ts): per edit message, per connection-hour, latency. */
    live: { type: 'boolean', default: false },
    /** Live editing's cost figures alone (per edit message, typing minute, connection-hour). */
    'live-cost': { type: 'boolean', default: false },
    notes: { type: 'string' },
    pairs: { type: 'string', default: process.env.BENCH_PAIRS ?? '20' },
    only: { type: 'string' },
    /** Only the routes whose "METHOD /path" contains this (e.g. "GET /{address}"). */
    route: { type: 'string' },
  },
});
const iterations = Number(args.iterations);
/** Every route is called once to warm up (cold start, first touch), then `iterations` times measured. */
const calls = iterations + 1;
/** Calls per route priced by what AWS bills (after the warm-up; not timed). */
const BILLED_CALLS = Math.min(3, Math.max(iterations - 1, 1));

// Measured calls go through node:http (not fetch, which adds Sec-Fetch-* headers and fixes Host),
// so a route's exact headers, such as the internal CSRF endpoint's, are what the scenario says.
const agent = new Agent({ keepAlive: true });
function send(
  base: string,
  req: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
) {
  return new Promise<{ status: number; header: (name: string) => string | undefined }>((resolve, reject) => {
    const r = request(`${base}${req.path}`, { method: req.method, headers: req.headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          header: (n) => res.headers[n.toLowerCase()] as string | undefined,
        }),
      );
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/**
 * The first call of a token's rate-limit window (Notes) costs one UpdateItem more, opening the
 * window (lib/identity/adapters/dynamo-tokens.ts): a long run crosses windows, and that call may
 * go one over its route's budget. It is the call that leaves limit - 1 calls in the window.
 */
const opensRateWindow = (res: { header: (name: string) => string | undefined }) => {
  const limit = res.header('x-ratelimit-userlimit');
  return limit !== undefined && Number(res.header('x-ratelimit-userremaining')) === Number(limit) - 1;
};

const figures: RunFigures = {
  note: args.note ?? `${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the start`,
};
const fullRun = !args.api && !args.route && !args.only;

/** Prints the cold-start table; returns how many functions failed. */
async function coldStartPart(dir: string): Promise<number> {
  // --only NotesGetMeFunction,Bank: those functions (an id, or the start of ids); --api notes: an API's.
  const only = (args.only ?? args.api)?.split(',').map((s) => s.trim().toLowerCase());
  const started = performance.now();
  const rows = await coldStart({
    outdir: join(dir, 'cold'),
    pairs: Number(args.pairs),
    baseline: args.baseline,
    clock: args.clock === 'wall' ? 'wall' : 'cpu',
    only: only && ((id) => only.some((a) => id.toLowerCase().startsWith(a))),
    progress: (r, done, total) =>
      process.stderr.write(
        `cold start ${done}/${total} (${((performance.now() - started) / 60_000).toFixed(1)} min): ${r.id} ` +
          `${r.ratios.coldStart.toFixed(2)}× floor, ${r.ratios.vsReference.toFixed(2)}× old build, ` +
          (r.ratios.vsBaseline === undefined ? '' : `${r.ratios.vsBaseline.toFixed(2)}× baseline, `) +
          `memory ${r.ratios.memory.toFixed(2)}×${r.problems.length ? ' FAIL' : ''}\n`,
      ),
  });
  console.log(
    `\nCold start (${args.pairs} alternating rounds per function; ratios of ` +
      `${args.clock === 'wall' ? 'wall' : 'CPU'} time, median; fresh node ${process.version} per sample; ` +
      `${((performance.now() - started) / 60_000).toFixed(1)} min)\n`,
  );
  const t = coldStartTable(rows);
  console.log(table(t.head, t.body));
  if (!args.only && !args.api) figures.cold = rows;
  const failed = rows.filter((r) => r.problems.length);
  for (const r of failed) console.log(`FAIL ${r.id}: ${r.problems.join('; ')}`);
  if (failed.length)
    console.log(
      `${failed.length} function(s) over a target (cold ≤ ${TARGETS.coldStart}× floor, ≤ ${TARGETS.vsReference}× old build, ` +
        (args.baseline ? `≤ ${TARGETS.vsBaseline}× baseline, ` : '') +
        `memory ≤ ${TARGETS.memory}×, bundle ≤ ${TARGETS.bundle}×) or bundling clients they may not call`,
    );
  return failed.length;
}

const scratch = mkdtempSync(join(tmpdir(), 'tri-api-bench-'));
if (args['floor-builds']) {
  const { floorBuilds } = await import('./floor-builds.ts');
  const floors = [
    'dynamodb',
    'dynamodb-s3',
    'dynamodb-secretsmanager',
    'dynamodb-secretsmanager-ses-sms-voice-sns',
  ];
  console.log(
    await floorBuilds({ outdir: join(scratch, 'floor-builds'), rounds: Number(args.pairs), floors }).finally(
      () => rmSync(scratch, { recursive: true, force: true }),
    ),
  );
  process.exit(0);
}
if (args['search-engines']) {
  const { compareEngines } = await import('./search-engines.ts');
  await compareEngines(Number(args.notes ?? 3000)).finally(() =>
    rmSync(scratch, { recursive: true, force: true }),
  );
  process.exit(0);
}
if (args.search) {
  const { searchBench } = await import('./search.ts');
  const failed = await searchBench(scratch, Number(args.notes ?? 10_000)).finally(() =>
    rmSync(scratch, { recursive: true, force: true }),
  );
  process.exit(failed ? 1 : 0);
}
if (args.live || args['live-cost']) {
  const { liveRun } = await import('./live.ts');
  const result = await liveRun(scratch, { costOnly: args['live-cost'] }).finally(() =>
    rmSync(scratch, { recursive: true, force: true }),
  );
  if (args['write-docs'] && result.figures)
    console.log(`\nwritten: ${writeDocs({ ...figures, live: result.figures }).join(', ')}`);
  process.exit(result.failures ? 1 : 0);
}
if (args['data-path']) {
  const { dataPath, dataPathTable } = await import('./data-path.ts');
  const rows = await dataPath({ outdir: join(scratch, 'data-path'), rounds: Number(args.pairs) }).finally(
    () => rmSync(scratch, { recursive: true, force: true }),
  );
  console.log(`Data path (${args.pairs} alternating rounds; median; cold = load + first call)\n`);
  console.log(dataPathTable(rows));
  process.exit(0);
}
if (args['cold-only']) {
  const failed = await coldStartPart(scratch).finally(() =>
    rmSync(scratch, { recursive: true, force: true }),
  );
  if (args['write-docs'] && figures.cold) console.log(`\nwritten: ${writeDocs(figures).join(', ')}`);
  process.exit(failed ? 1 : 0);
}

// Security events and warnings are logged at WARN; the bench prints its tables only.
process.env.LOG_LEVEL ??= 'ERROR';
const stack = await startLocalStack({ scratchDir: scratch });
const port = await freePort();
// The bench makes thousands of calls with a few tokens: the Notes per-token rate limit must not answer them.
process.env.NOTES_RATE_LIMIT ??= '1000000';
const env = functionEnvironment(stack, `http://localhost:${port}`);
const runner = await startRunner({ port, env, s3Endpoint: stack.s3Endpoint, bucketName: stack.bucketName });
let failures = 0;

try {
  const identity = (await import('../../lib/identity/wiring.ts')).fullIdentity();
  const ctx: BenchContext = {
    baseUrl: runner.url,
    iterations: calls,
    newUser: async (name = 'Bench User', opts = {}) => {
      const u = await identity.createUser({
        name,
        userPath: `bench-${Math.random().toString(36).slice(2, 12)}`,
      });
      if (opts.admin) await identity.grantRole(u.id, 'admin');
      return { id: u.id, name: u.name, userPath: u.userPath, token: await identity.issueToken(u.id) };
    },
    newTeam: async (owner, members = []) => {
      const t = await identity.createTeam({
        ownerId: owner.id,
        path: `bench-${Math.random().toString(36).slice(2, 12)}`,
        name: 'Bench Team',
      });
      for (const m of members) await identity.addMember(t.path, m.id);
      return { path: t.path, id: t.id };
    },
    http: async (method, path, o = {}) => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.Authorization = `Bearer ${o.token}`;
      let body: string | Buffer | undefined = o.raw;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['Content-Type'] ??= 'application/json';
      }
      if (o.contentType) headers['Content-Type'] = o.contentType;
      const res = await fetch(`${runner.url}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };

  const apis = args.api ? [args.api] : ['notes', 'news', 'bank'];
  const all: Array<BenchRoute & { api: string }> = [];
  for (const api of apis) {
    const mod = await import(`./scenarios/${api}.ts`);
    for (const r of await mod.scenarios(ctx))
      if (!args.route || r.route.includes(args.route)) all.push({ ...r, api });
  }

  const rows: string[][] = [];
  // A route's function memory: its own MemorySize, else the template's Globals.
  const template = loadTemplate();
  const memoryOf = (row: string) => {
    const route = listRoutes(template).find((x) => row.startsWith(`${x.method} ${x.path}`));
    const own = route && template.Resources[route.functionId]?.Properties?.MemorySize;
    return Number(own ?? template.Globals?.Function?.MemorySize ?? 128);
  };
  const costs = new CostCollector(memoryOf);
  for (const r of all) {
    const lat: number[] = [];
    let maxReq = 0;
    let overBudget = false;
    let sumReq = 0;
    let sumCap = 0;
    const billed = { write: [] as number[], read: [] as number[] };
    let overUnits = '';
    let bad = '';
    for (let i = 0; i < calls; i++) {
      const req = await r.request(i);
      // The first calls after the warm-up are priced (infra/bench/biller.ts reads the items each
      // request touches, outside the meter); the others are timed, without the biller's reads.
      const pricing = i > 0 && i <= BILLED_CALLS;
      const stopBilling = pricing ? startBilling() : undefined;
      const started = performance.now();
      const res = await send(runner.url, req).finally(() => stopBilling?.());
      const ms = performance.now() - started;
      if (res.status !== r.expectStatus) {
        bad = `status ${res.status}, expected ${r.expectStatus}`;
        break;
      }
      if (i === 0) continue; // warm-up call: cold start and first-touch effects are not a route's cost
      // Billed units from the priced calls (the others carry 0: no biller), durations from the timed
      // ones: the runner's own measure of the invocation (X-Local-Duration-Ms), not the HTTP round trip.
      costs.observe(
        r.label ? `${r.route} (${r.label})` : r.route,
        pricing ? res.header : () => undefined,
        pricing ? undefined : Number(res.header('x-local-duration-ms') ?? ms),
      );
      const n = Number(res.header('x-local-dynamo-requests'));
      maxReq = Math.max(maxReq, n);
      const opens = opensRateWindow(res) ? 1 : 0;
      if (r.budget !== undefined && n > r.budget + opens) overBudget = true;
      if (pricing) {
        const w = Number(res.header('x-local-dynamo-write-units'));
        const rd = Number(res.header('x-local-dynamo-read-units'));
        billed.write.push(w);
        billed.read.push(rd);
        // Opening a rate-limit window writes the window's item: one unit more on that call.
        if (r.writeUnits !== undefined && w > r.writeUnits + opens)
          overUnits = `write ${w} > ${r.writeUnits}`;
        if (r.readUnits !== undefined && rd > r.readUnits) overUnits = `read ${rd} > ${r.readUnits}`;
        continue;
      }
      lat.push(ms);
      sumReq += n;
      sumCap += Number(res.header('x-local-dynamo-capacity'));
    }
    if (bad || overBudget || overUnits) failures += 1;
    const units = (list: number[], target?: number) =>
      `${list.length ? Math.max(...list) : '-'}${target === undefined ? '' : ` / ${target}`}`;
    rows.push([
      r.label ? `${r.route} (${r.label})` : r.route,
      String(lat.length),
      (sumReq / Math.max(lat.length, 1)).toFixed(2),
      String(maxReq),
      r.budget === undefined ? '-' : String(r.budget),
      units(billed.write, r.writeUnits),
      units(billed.read, r.readUnits),
      (sumCap / Math.max(lat.length, 1)).toFixed(2),
      percentile(lat, 50).toFixed(1),
      percentile(lat, 99).toFixed(1),
      bad ? `FAIL ${bad}` : overBudget ? 'OVER BUDGET' : overUnits ? `OVER UNITS (${overUnits})` : 'ok',
    ]);
  }

  const covered = new Set(all.map((r) => r.route));
  const missing = listRoutes()
    .filter((r) => r.method !== 'ANY' && apis.some((a) => r.functionId.toLowerCase().startsWith(a)))
    .map((r) => `${r.method} ${r.path}`)
    .filter((k) => !covered.has(k));

  console.log(
    `\nRoutes (${iterations} calls each after one warm-up call; latency through the local runner, in process)\n`,
  );
  const routesTable = table(
    [
      'route',
      'calls',
      'ddb req/call',
      'max',
      'budget',
      'billed write units (max / target)',
      'billed read units (max / target)',
      'Local capacity units/call',
      'p50 ms',
      'p99 ms',
      'result',
    ],
    rows,
  );
  console.log(routesTable);
  if (missing.length && !args.route) {
    console.log(`\nRoutes without a bench scenario:\n  ${missing.join('\n  ')}`);
  }
  const usage = costs.usage();
  console.log(
    `\nWhat a user pays per million calls (${PRICES.region} on-demand prices of ${PRICES.date}; ` +
      'billed units and median duration of this run; docs/architecture.md, "Cost per call")\n',
  );
  console.log(
    usage.length ? table(COST_HEAD, costRows(usage)) : 'no billed units measured (the biller is off)',
  );

  if (fullRun) {
    figures.routesTable = routesTable;
    figures.usage = usage;
  }
  if (!args.route) {
    if (apis.includes('notes')) {
      const pipeline = await pipelineCost(ctx, runner, 40, memoryOf('POST /v1/notes'));
      failures += pipeline.failures;
      if (fullRun) figures.pipeline = pipeline.cost;
      const { liveBench } = await import('./live.ts');
      const live = await liveBench(ctx, runner);
      failures += live.failures;
      if (fullRun) figures.live = live.figures;
    }
    failures += await loadRun(ctx, (summary) => {
      if (fullRun) figures.load = summary;
    });
  }
  if (!args['skip-bundles']) failures += await coldStartPart(scratch);
  if (args['write-docs']) {
    if (fullRun) console.log(`\nwritten: ${writeDocs(figures).join(', ')}`);
    else console.log('\n--write-docs: not written (a full run only: no --api, --route or --only)');
  }
  console.log(
    failures
      ? `\n${failures} route(s) failed or exceeded their DynamoDB budget`
      : '\nall routes within budget',
  );
} finally {
  agent.destroy();
  await runner.close();
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
