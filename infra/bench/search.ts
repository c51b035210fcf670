// `npm run bench -- --search [--notes 10000]`: full-text search at the size real workspaces reach —
// one workspace of 10,000 notes, about 40 MB of markdown (infra/bench/search-corpus.ts), through the
// local runner (own DynamoDB Local and S3 emulator). The notes are written before the runner starts
// (so the stream does not index them one batch at a time), then the index is built as
// `npm run admin -- search rebuild` builds it. Figures: the index's size, the rebuild's time; a cold
// search in two parts, the function's own start (against GET /v1/me's first call) and the first
// search of the workspace (its segments loaded: heads, S3 GETs, a copy into SQLite), wall and
// CPU; the memory the loaded segments hold (heap after a full GC, and resident memory: SQLite's
// is outside the heap); warm searches' p50/p95 against a floor measured in
// the same run (GET /v1/me through the same runner), overall and by kind; pathological queries
// (misspelled words among 20,000 neighbours each: ./search-misspelled.ts); and
// what an edit costs: write requests per edit (one at a time, and a burst), the time until it is
// searchable, and the indexer's work for one isolated edit, priced in dollars per million.
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import pMap from 'p-map';
import { startRunner } from '../local/runner.ts';
import { freePort } from '../local/services.ts';
import { functionEnvironment, startLocalStack } from '../local/stack.ts';
import { searchEditRequests } from './cost.ts';
import { corpus } from './search-corpus.ts';
import { misspelledBench } from './search-misspelled.ts';
import { median, percentile, table } from './stats.ts';

const get = (url: string, token: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const r = request(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    r.on('error', reject);
    r.end();
  });

/** Runs `fn`, timing it in wall-clock and this process's CPU (all threads) milliseconds. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - t, cpu: (used.user + used.system) / 1000 };
}

/** A full garbage collection (V8's own, exposed for this process), so heap figures are live data. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export async function searchBench(scratchDir: string, count: number): Promise<number> {
  process.env.LOG_LEVEL ??= 'ERROR';
  process.env.NOTES_RATE_LIMIT ??= '1000000';
  const stack = await startLocalStack({ scratchDir });
  const port = await freePort();
  const env = functionEnvironment(stack, `http://localhost:${port}`);
  Object.assign(process.env, env);
  let runner: Awaited<ReturnType<typeof startRunner>> | undefined;
  const rows: string[][] = [];
  // Each row is printed as soon as it is measured (a long run that stops keeps what it measured).
  const row = (r: string[]) => {
    rows.push(r);
    process.stderr.write(`search bench: ${r.join(' | ')}\n`);
  };
  let failures = 0;
  try {
    const { fullIdentity } = await import('../../lib/identity/wiring.ts');
    const { fullNotes } = await import('../../lib/notes/wiring.ts');
    const { searchIndexer } = await import('../../lib/notes/search/wiring.ts');
    const { s3IndexStore } = await import('../../lib/notes/search/adapters/s3-index-store.ts');
    const { userWorkspace } = await import('../../lib/notes/search/model.ts');
    const user = await fullIdentity().createUser({ name: 'Search Bench', userPath: `bench-search-${port}` });
    const token = await fullIdentity().issueToken(user.id);
    const workspace = userWorkspace(user.id);

    const { notes: docs, words } = corpus(count);
    const markdown = docs.reduce((s, n) => s + Buffer.byteLength(n.content), 0);
    let t = performance.now();
    let written = 0;
    const created = await pMap(
      docs,
      async (d) => {
        const n = await fullNotes().createNote(user.id, { content: d.content });
        written += 1;
        if (written % 1000 === 0) process.stderr.write(`search bench: ${written} notes written\n`);
        return n.note.shortId;
      },
      { concurrency: 16 },
    );
    row([
      'notes written',
      `${count} notes, ${mb(markdown)} of markdown`,
      `${((performance.now() - t) / 1000).toFixed(0)} s`,
    ]);

    t = performance.now();
    await searchIndexer().rebuild(workspace, (done) => {
      if (done % 2000 === 0) process.stderr.write(`search bench: ${done} notes indexed\n`);
    });
    const rebuildMs = performance.now() - t;
    const heads = (await s3IndexStore.heads([workspace])).get(workspace)!;
    const segments = await Promise.all(heads.map(async (h) => (await s3IndexStore.load(h))!));
    const raw = segments.reduce((n, d) => n + d.byteLength, 0);
    const zipped = segments.map((d) => gzipSync(d, { level: 1 }).length);
    row([
      'index (admin rebuild)',
      `${heads.length} segments: ${mb(raw)} of SQLite databases in S3, stored as they are ` +
        `(largest ${mb(Math.max(...segments.map((d) => d.byteLength)))}; ` +
        `${mb(zipped.reduce((a, b) => a + b, 0))} if gzipped)`,
      `${(rebuildMs / 1000).toFixed(1)} s`,
    ]);

    runner = await startRunner({ port, env, s3Endpoint: stack.s3Endpoint, bucketName: stack.bucketName });
    const base = `${runner.url}/v1/search?q=`;
    // Floors: an authenticated call of the same runner that reads one item — its first call (the
    // function's cold start: bundle load, one read) and 100 warm calls.
    const coldFloor = await timed(() => get(`${runner!.url}/v1/me`, token));
    const floor: number[] = [];
    for (let i = 0; i < 100; i += 1) floor.push((await timed(() => get(`${runner!.url}/v1/me`, token))).ms);

    // Cold: the search function's own start (bundle build and init, and a search of a user with no
    // index), then the first search of the workspace: its segments loaded (heads, S3 GETs in
    // parallel, a copy into SQLite) and searched, the hits read — what a cold start adds.
    const empty = await fullIdentity().createUser({
      name: 'Search Bench Empty',
      userPath: `bench-empty-${port}`,
    });
    const start = await timed(async () =>
      get(`${base}${encodeURIComponent(words[3])}`, await fullIdentity().issueToken(empty.id)),
    );
    const gc = collector();
    gc();
    const before = process.memoryUsage();
    const cold = await timed(() => get(`${base}${encodeURIComponent(words[3])}`, token));
    gc();
    const heapAfter = process.memoryUsage();
    if (cold.value.status !== 200 || start.value.status !== 200) failures += 1;
    row([
      'cold search: the function starts',
      `bundle build + init + a search of no index; floor: GET /v1/me's first call ${coldFloor.ms.toFixed(0)} ms (${coldFloor.cpu.toFixed(0)} ms CPU)`,
      `${start.ms.toFixed(0)} ms (${start.cpu.toFixed(0)} ms CPU)`,
    ]);
    row([
      'cold search: + loading the index',
      `${heads.length} segments (heads, S3 GETs, a copy into SQLite) and the first search; ${((start.ms + cold.ms) / 1000).toFixed(2)} s with the start`,
      `${cold.ms.toFixed(0)} ms (${cold.cpu.toFixed(0)} ms CPU)`,
    ]);
    row([
      'memory of the loaded index',
      `heap +${mb(heapAfter.heapUsed - before.heapUsed)} after GC, resident +${mb(heapAfter.rss - before.rss)} (SQLite's memory is outside the heap)`,
      `heap ${mb(heapAfter.heapUsed)}, rss ${mb(heapAfter.rss)} (whole runner)`,
    ]);

    // Warm: one-word, two-word, prefix, typo and phrase queries over the corpus's vocabulary.
    const kinds = ['one word', 'two words', 'prefix (3 letters)', 'typo', 'phrase'];
    const queries = Array.from({ length: 200 }, (_, i) => {
      const w = words[(i * 7) % 3000];
      const v = words[(i * 13 + 5) % 3000];
      return [w, `${w} ${v}`, `${w} ${v.slice(0, 3)}`, `${w.slice(0, 2)}x${w.slice(3)}`, `"${w} ${v}"`][
        i % 5
      ];
    });
    const warm: number[] = [];
    const byKind: number[][] = kinds.map(() => []);
    let warmCpu = 0;
    for (const [i, q] of queries.entries()) {
      const r = await timed(() => get(`${base}${encodeURIComponent(q)}`, token));
      warm.push(r.ms);
      byKind[i % 5].push(r.ms);
      warmCpu += r.cpu;
      if (r.value.status !== 200) failures += 1;
    }
    const p95 = percentile(warm, 95);
    const floor95 = percentile(floor, 95);
    row([
      'warm search p50 / p95 (200 queries)',
      `floor GET /v1/me p50 / p95 ${percentile(floor, 50).toFixed(1)} / ${floor95.toFixed(1)} ms; p95 ` +
        `ratio ${(p95 / floor95).toFixed(1)}×; ${(warmCpu / warm.length).toFixed(1)} ms CPU per search`,
      `${percentile(warm, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
    ]);
    row([
      'warm p95 by kind',
      kinds.map((k, i) => `${k} ${percentile(byKind[i], 95).toFixed(0)}`).join(', '),
      'ms',
    ]);

    // Pathological queries: many terms, wildcards, one-letter prefixes (the route's Timeout is 30 s).
    const pathological = [
      Array.from({ length: 64 }, (_, i) => `${'ab'.repeat(1 + (i % 3))}*`)
        .join(' ')
        .slice(0, 256),
      Array.from({ length: 128 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[i % 26]).join(' '),
      Array.from({ length: 20 }, (_, i) => words[i])
        .join(' ')
        .slice(0, 256),
      'k',
    ];
    const worst = { ms: 0, status: 200 };
    for (const q of pathological) {
      const r = await timed(() => get(`${base}${encodeURIComponent(q)}`, token));
      if (r.ms > worst.ms) Object.assign(worst, { ms: r.ms, status: r.value.status });
      if (r.value.status !== 200) failures += 1;
    }
    row([
      'pathological queries (4), slowest',
      `status ${worst.status}; the route's Timeout is 30 s`,
      `${worst.ms.toFixed(0)} ms`,
    ]);
    // Misspelled words among 20,000 neighbours each, in the engine (./search-misspelled.ts).
    for (const r of await misspelledBench()) row(r);

    // An edit's cost: 5 edits one at a time (each its own stream batch), then 100 at once.
    const saved = async () =>
      ((await s3IndexStore.heads([workspace])).get(workspace) ?? []).reduce((n, h) => n + h.generation, 0);
    const settle = async (target: string) => {
      const end = Date.now() + 120_000;
      while (Date.now() < end) {
        const r = await get(`${base}${encodeURIComponent(target)}`, token);
        if (JSON.parse(r.body).results?.length) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`search bench: edit ${target} not indexed in 120 s`);
    };
    for (const [label, edits, gap] of [
      ['one at a time', 5, true],
      ['a burst of 100', 100, false],
    ] as const) {
      const g0 = await saved();
      let last = '';
      const s = performance.now();
      const each: number[] = [];
      for (let i = 0; i < edits; i += 1) {
        // Random letters: no earlier marker is within one edit of it (a typo match would find it early).
        const marker = `edit${Math.random().toString(36).slice(2, 12).replace(/[0-9]/g, 'q')}`;
        last = marker;
        const e = performance.now();
        const edit = fullNotes().updateNote(user.id, created[i], {
          content: `${docs[i].content}\n\n${marker}`,
        });
        if (gap) {
          await edit;
          await settle(marker);
          each.push(performance.now() - e);
        } else await edit;
      }
      if (!gap) await settle(last);
      const saves = (await saved()) - g0;
      row([
        `edits ${label}: segment saves`,
        `${saves} saves for ${edits} edits: ${((2 * saves) / edits).toFixed(2)} write requests per edit (S3 PUT + head UpdateItem per save)`,
        gap
          ? `searchable after ${median(each).toFixed(0)} ms (median)`
          : `${((performance.now() - s) / edits).toFixed(0)} ms per edit until all searchable`,
      ]);
    }

    // The indexer's work for one isolated edit, measured directly: load, change and store the note's
    // segment (what the stream function does for a batch of one note).
    const applies: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < 10; i += 1)
      applies.push(await timed(() => searchIndexer().apply(workspace, [created[200 + i]])));
    const cpuS = median(applies.map((a) => a.cpu)) / 1000;
    const wallS = median(applies.map((a) => a.ms)) / 1000;
    // The requests at list prices (infra/bench/cost.ts, searchEditRequests); Lambda arm64
    // $0.0000133334 per GB-s at 1,024 MB, billed on the wall time (at least the CPU time at 1,024/1,769
    // of a vCPU).
    const requests = searchEditRequests() * 1e6;
    const compute = Math.max(wallS, (cpuS * 1769) / 1024) * 1 * 0.0000133334 * 1e6;
    row([
      'an isolated edit: the indexer (load, change, store one segment)',
      `${wallS.toFixed(2)} s wall, ${cpuS.toFixed(2)} s CPU; cost $${requests.toFixed(2)}/M requests + ` +
        `$${compute.toFixed(2)}/M compute = $${(requests + compute).toFixed(2)}/M; ` +
        `2 write requests (2 S3 PUTs) = $10/M: ratio ${((requests + compute) / 10).toFixed(2)}`,
      `${(wallS * 1000).toFixed(0)} ms (median of 10)`,
    ]);
  } finally {
    await runner?.close();
    await stack.stop();
  }
  console.log(`\nSearch at size (one workspace; node ${process.version})\n`);
  console.log(table(['what', 'detail', 'figure'], rows));
  return failures;
}
