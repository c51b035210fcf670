// npm run soak: the runner's memory after sustained use. Starts `npm start` on a scratch data dir,
// gives the demo user three webhooks to loopback receivers started here (two answer 204 at once,
// one never answers), sends 1,000 requests (SOAK_REQUESTS) spread over every GET route and note
// creates (every tenth request: each an event for the three webhooks), makes 3 hot reloads
// (touching lib files every function includes), then reports the runner's start-up time (its
// "ready in" line) and resident memory at ready, and its resident memory (now and peak) after the
// requests with the deliveries received, from /proc, and stops the stack. Exits 1 over the limit,
// derived from the design (LIMIT below): what the runner held at ready, plus the environments it
// may keep once the campaign is over.
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxWarmEnvironments } from './lambdas.ts';
import { freePort } from './services.ts';
import { listFunctions, listRoutes, loadTemplate, ROOT } from './template.ts';

/**
 * One function environment (a worker thread) after it served requests, resident: its own copy of
 * the shared packages, its bundle, its heap (young generation bounded: environments.ts). Measured
 * by this soak (SOAK_REQUESTS=100: 487 and 520 MB over ready for 9 more environments, 54-58 MB each,
 * the runner's own growth over 3 reloads included); docs/benchmarks.md, "Memory of the local runner".
 */
const ENVIRONMENT_MB = 60;
/**
 * Once the requests are answered and the deliveries settled, no environment is busy: the runner
 * keeps at most maxWarmEnvironments() idle ones and a spare per MemorySize the functions use
 * (LOCAL_SPARE_ENVIRONMENTS each), one spare of which is already in the figure at ready.
 */
const template = loadTemplate();
const memorySizes = new Set(
  listFunctions(template).map((f) => f.properties.MemorySize ?? template.Globals?.Function?.MemorySize),
);
const ENVIRONMENTS =
  maxWarmEnvironments() + memorySizes.size * Number(process.env.LOCAL_SPARE_ENVIRONMENTS ?? 1) - 1;
const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 1000);
const RELOADS = 3;

const dataDir = mkdtempSync(join(tmpdir(), 'tri-api-soak-'));
const port = await freePort();
const child = spawn('npm', ['start', '--silent'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  // The Notes per-token rate limit (100 per 5 minutes) raised: the campaign's writes are all served.
  env: {
    ...process.env,
    PORT: String(port),
    LOCAL_DATA_DIR: dataDir,
    QUIET: '1',
    NOTES_RATE_LIMIT: '1000000',
  },
});
let out = '';
child.stdout!.on('data', (d) => {
  out += d;
});
const wait = async (what: RegExp, ms: number) => {
  const deadline = Date.now() + ms;
  while (!what.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start: no ${what} in time\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
};

/** A loopback webhook receiver: counts what it gets; answers 204, or never ('hang'). */
async function receiver(hang: boolean) {
  const held: ServerResponse[] = [];
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      if (hang) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    received: () => received,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}
const receivers = await Promise.all([receiver(false), receiver(false), receiver(true)]);

try {
  await wait(/\[start\] ready in/, 300_000);
  const base = `http://localhost:${port}`;
  const pid = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')).pid as number;
  const atReady = memory(pid);
  const LIMIT_MB = atReady.rssMb + ENVIRONMENTS * ENVIRONMENT_MB;
  console.log(
    `${/\[start\] (ready in [^\n]*)/.exec(out)?.[1]}; runner RSS at ready ${atReady.rssMb} MB (peak ${atReady.peakMb} MB)`,
  );
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  const headers = { Authorization: `Bearer ${demo.users[0].token}`, 'Content-Type': 'application/json' };
  for (const r of receivers) {
    const res = await fetch(`${base}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: r.url, scope: { type: 'workspace' } }),
    });
    if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
  }
  const gets = listRoutes()
    .filter((r) => r.method === 'GET')
    .map((r) => r.path.replace(/\{\w+\+?\}/g, '1'));
  const call = async (i: number) => {
    if (i % 10 === 0) {
      return fetch(`${base}/v1/notes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: `# soak ${i}` }),
      });
    }
    return fetch(`${base}${gets[i % gets.length]}`, { headers });
  };
  const touched = ['lib/http/api.ts', 'lib/config.ts'].map((f) => join(ROOT, f));
  const statuses = new Map<number, number>();
  const started = Date.now();
  for (let i = 0; i < REQUESTS; i += 8) {
    const batch = await Promise.all(Array.from({ length: Math.min(8, REQUESTS - i) }, (_, k) => call(i + k)));
    for (const res of batch) {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await res.arrayBuffer();
    }
    const reload = Math.floor(((i + 8) * RELOADS) / REQUESTS);
    if (reload > Math.floor((i * RELOADS) / REQUESTS) && reload <= RELOADS) {
      const before = (out.match(/changed /g) ?? []).length;
      const now = new Date();
      for (const f of touched) if (statSync(f, { throwIfNoEntry: false })) utimesSync(f, now, now);
      const deadline = Date.now() + 60_000;
      while ((out.match(/changed /g) ?? []).length === before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // The deliveries of the last writes: until the receivers get nothing more for 3 s (at most 60 s).
  const settled = Date.now() + 60_000;
  for (let last = -1, same = 0; same < 3 && Date.now() < settled; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = receivers.reduce((n, r) => n + r.received(), 0);
    same = now === last ? same + 1 : 0;
    last = now;
  }
  const m = memory(pid);
  const reloads = out.split('\n').filter((l) => l.includes('changed '));
  console.log(reloads.map((l) => l.slice(0, 200)).join('\n'));
  console.log(
    `${REQUESTS} requests in ${seconds} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
      `${reloads.length} reloads, webhook deliveries received ${receivers.map((r) => r.received()).join('/')} ` +
      `(answered/answered/hanging); runner RSS ${m.rssMb} MB (peak ${m.peakMb} MB; ` +
      `limit ${LIMIT_MB} MB: ${atReady.rssMb} at ready + ${ENVIRONMENTS} environments × ${ENVIRONMENT_MB})`,
  );
  if (m.rssMb > LIMIT_MB) process.exitCode = 1;
} finally {
  for (const r of receivers) r.close();
  // npm start may have ended already (it failed to start): then its error is the one reported.
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
}
