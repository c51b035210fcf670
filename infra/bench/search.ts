// `npm run bench -- --search [--notes 10000]`: full-text search at the size real workspaces reach —
// one workspace of 10,000 notes, about 40 MB of markdown (infra/bench/search-corpus.ts), through the
// local runner (own DynamoDB Local and S3 emulator). The notes are written before the runner starts
// (so the stream does not index them one batch at a time), then the index is built as
// `npm run admin -- search rebuild` builds it. Figures: the index's size, the rebuild's time, a cold
// search (the function's first call: bundle load, the head, the S3 object, parsing the index), warm
// searches' p50/p95 against a floor measured in the same run (GET /v1/me through the same runner), the
// heap the loaded index holds, and what an edit costs the indexer (its write requests, its time).
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import pMap from 'p-map';
import { startRunner } from '../local/runner.ts';
import { freePort } from '../local/services.ts';
import { functionEnvironment, startLocalStack } from '../local/stack.ts';
import { corpus } from './search-corpus.ts';
import { percentile, table } from './stats.ts';

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
    const { identity } = await import('../../lib/identity/wiring.ts');
    const { notes } = await import('../../lib/notes/wiring.ts');
    const { searchIndexer } = await import('../../lib/notes/search/wiring.ts');
    const { s3IndexStore } = await import('../../lib/notes/search/adapters/s3-index-store.ts');
    const { userWorkspace } = await import('../../lib/notes/search/model.ts');
    const user = await identity().createUser({ name: 'Search Bench', userPath: `bench-search-${port}` });
    const token = await identity().issueToken(user.id);
    const workspace = userWorkspace(user.id);

    const { notes: docs, words } = corpus(count);
    const markdown = docs.reduce((s, n) => s + Buffer.byteLength(n.content), 0);
    let t = performance.now();
    let written = 0;
    const created = await pMap(
      docs,
      async (d) => {
        const n = await notes().createNote(user.id, { content: d.content });
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
    const head = (await s3IndexStore.heads([workspace])).get(workspace)!;
    const json = (await s3IndexStore.load(head))!;
    row([
      'index (admin rebuild)',
      `${mb(Buffer.byteLength(json))} JSON, ${mb(gzipSync(json).length)} gzip in S3`,
      `${(rebuildMs / 1000).toFixed(1)} s`,
    ]);

    runner = await startRunner({ port, env, s3Endpoint: stack.s3Endpoint, bucketName: stack.bucketName });
    const base = `${runner.url}/v1/search?q=`;
    // Floor: an authenticated call of the same runner that reads one item (its first call is its cold start).
    await get(`${runner.url}/v1/me`, token);
    const floor: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const s = performance.now();
      await get(`${runner.url}/v1/me`, token);
      floor.push(performance.now() - s);
    }

    const heapBefore = process.memoryUsage();
    t = performance.now();
    const cold = await get(`${base}${encodeURIComponent(words[3])}`, token);
    const coldMs = performance.now() - t;
    const heapAfter = process.memoryUsage();
    if (cold.status !== 200) failures += 1;
    row(['cold search (bundle, head, S3 object, parse)', `status ${cold.status}`, `${coldMs.toFixed(0)} ms`]);
    row([
      'memory of the loaded index',
      `heap +${mb(heapAfter.heapUsed - heapBefore.heapUsed)}, rss +${mb(heapAfter.rss - heapBefore.rss)}`,
      `rss ${mb(heapAfter.rss)} (whole runner)`,
    ]);

    // Warm: one-word, two-word, prefix, typo and phrase queries over the corpus's vocabulary.
    const queries = Array.from({ length: 200 }, (_, i) => {
      const w = words[(i * 7) % 3000];
      const v = words[(i * 13 + 5) % 3000];
      return [w, `${w} ${v}`, `${w} ${v.slice(0, 3)}`, `${w.slice(0, 2)}x${w.slice(3)}`, `"${w} ${v}"`][
        i % 5
      ];
    });
    const warm: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      const res = await get(`${base}${encodeURIComponent(q)}`, token);
      warm.push(performance.now() - s);
      if (res.status !== 200) failures += 1;
    }
    const p95 = percentile(warm, 95);
    const floor95 = percentile(floor, 95);
    row([
      'warm search p50 / p95 (200 queries)',
      `floor GET /v1/me p95 ${floor95.toFixed(1)} ms; ratio ${(p95 / floor95).toFixed(1)}×`,
      `${percentile(warm, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
    ]);

    // An edit's cost: 5 edits one at a time (each its own stream batch), then 100 at once.
    const generation = async () => (await s3IndexStore.heads([workspace])).get(workspace)!.generation;
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
      const g0 = await generation();
      let last = '';
      const s = performance.now();
      for (let i = 0; i < edits; i += 1) {
        // Random letters: no earlier marker is within one edit of it (a typo match would find it early).
        const marker = `edit${Math.random().toString(36).slice(2, 12).replace(/[0-9]/g, 'q')}`;
        last = marker;
        const edit = notes().updateNote(user.id, created[i], { content: `${docs[i].content}\n\n${marker}` });
        if (gap) {
          await edit;
          await settle(marker);
        } else await edit;
      }
      if (!gap) await settle(last);
      const saves = (await generation()) - g0;
      row([
        `edits ${label}: index saves`,
        `${saves} saves for ${edits} edits: ${((2 * saves) / edits).toFixed(2)} write requests per edit (S3 PUT + head PutItem per save)`,
        `${((performance.now() - s) / edits).toFixed(0)} ms per edit until searchable`,
      ]);
    }
  } finally {
    await runner?.close();
    await stack.stop();
  }
  console.log(`\nSearch at size (one workspace; node ${process.version})\n`);
  console.log(table(['what', 'detail', 'figure'], rows));
  return failures;
}
