// The data-path bench (infra/bench/data-path.ts) measures what it says: the floor sends one request,
// the raw pair two, and the Notes authentication handler the two requests of the real adapters.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DataPathRow, dataPath, dataPathTable } from '../../infra/bench/data-path.ts';

describe('data-path bench', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tri-api-data-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let rows: DataPathRow[];

  it('counts the requests of each handler and compares it with the floor', async () => {
    rows = await dataPath({ outdir: dir, rounds: 2 });
    expect(rows.map((r) => r.requests)).toEqual([1, 2, 2]);
    expect(rows[0].coldRatio).toBe(1);
    for (const r of rows) expect(r.coldMs).toBeGreaterThan(r.loadMs);
  });

  it('prints one row per handler', () => {
    expect(dataPathTable(rows).split('\n')).toHaveLength(2 + rows.length);
  });
});
