// `npm run bench -- --data-path`: what a Notes function's first call costs before any of its own code
// (the data path alone). The DynamoDB floor (one GetItem) against two handlers of infra/bench/paths, built with
// template.yaml's BuildProperties and measured like the functions (infra/bench/coldstart.ts: a fresh
// Node 24 per sample, the handler loaded and called once against the stub endpoint), alternating in
// rounds: a second request through the raw client, and the Notes authentication's two requests
// through the adapters themselves (the token's rate-limit UpdateItem, the caller's Query).
import { join } from 'node:path';
import { BUILD_PROPERTIES } from '../deploy/build.ts';
import { build, lambdaEnv, type Sample, sample, startStubEndpoint } from './coldstart.ts';
import { median, table } from './stats.ts';

export const DATA_PATHS = [
  { name: 'floor: one GetItem', entry: 'infra/bench/floors/dynamodb.ts' },
  { name: 'GetItem, then Query (raw client)', entry: 'infra/bench/paths/two-requests.ts' },
  {
    name: 'Notes authentication: UpdateItem, then Query (adapters)',
    entry: 'infra/bench/paths/notes-auth.ts',
  },
] as const;

export interface DataPathRow {
  name: string;
  bytes: number;
  loadMs: number;
  coldMs: number;
  /** Median of the per-round ratios to the floor's load + first call. */
  coldRatio: number;
  requests: number;
}

export async function dataPath(opts: { outdir: string; rounds: number }): Promise<DataPathRow[]> {
  const built = await Promise.all(
    DATA_PATHS.map((p, i) => build(p.entry, join(opts.outdir, String(i)), BUILD_PROPERTIES)),
  );
  const stub = await startStubEndpoint();
  try {
    const env = { ...lambdaEnv('--enable-source-maps', stub.url), ...stub.env };
    const samples: Sample[][] = DATA_PATHS.map(() => []);
    const requests = DATA_PATHS.map(() => 0);
    for (let round = 0; round < opts.rounds; round++) {
      for (let j = 0; j < DATA_PATHS.length; j++) {
        const i = (round + j) % DATA_PATHS.length;
        const before = stub.requests();
        samples[i].push(await sample(built[i].file, 'handler', { id: 'x' }, env));
        requests[i] = stub.requests() - before;
      }
    }
    return DATA_PATHS.map((p, i) => ({
      name: p.name,
      bytes: built[i].bytes,
      loadMs: median(samples[i].map((s) => s.loadMs)),
      coldMs: median(samples[i].map((s) => s.totalMs)),
      coldRatio: median(samples[i].map((s, r) => s.totalMs / samples[0][r].totalMs)),
      requests: requests[i],
    }));
  } finally {
    await stub.close();
  }
}

export const dataPathTable = (rows: DataPathRow[]) =>
  table(
    ['handler', 'KiB', 'AWS requests', 'load ms', 'cold ms', 'cold × floor'],
    rows.map((r) => [
      r.name,
      (r.bytes / 1024).toFixed(0),
      String(r.requests),
      r.loadMs.toFixed(1),
      r.coldMs.toFixed(1),
      r.coldRatio.toFixed(2),
    ]),
  );
