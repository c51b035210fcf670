// `npm test`, pass or fail, leaves no process behind: a nested vitest run with the real global
// setup, whose one test fails (and one whose setup fails half-way, after DynamoDB Local started),
// ends with no runner, esbuild, Java or emulator of it still running.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { killMarked, leftAfter, MARKER } from '../support/processes.ts';

const markers: string[] = [];
afterAll(() => {
  for (const m of markers) killMarked(m);
});

async function nestedVitest(
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; marker: string }> {
  const marker = randomUUID();
  markers.push(marker);
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', 'test/fixtures/orphans/vitest.config.ts'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        TEST_BASE_URL: '',
        LOCAL_RUNNER_URL: '',
        [MARKER]: marker,
        TRI_API_TEST_NO_PREBUILD: '1',
        ...env,
      },
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, marker };
}

it('a failing test: non-zero exit, and nothing of the run is left', async () => {
  const run = await nestedVitest();
  expect(run.out).toContain('failing on purpose');
  expect(run.code).not.toBe(0);
  expect(await leftAfter(run.marker, 10_000)).toEqual([]);
}, 400_000);

it('a global setup failing half-way: non-zero exit, and nothing of the run is left', async () => {
  const run = await nestedVitest({ TRI_API_TEST_FAIL_SETUP: 'after-stack' });
  expect(run.out).toContain('global setup failing on purpose');
  expect(run.code).not.toBe(0);
  expect(await leftAfter(run.marker, 10_000)).toEqual([]);
}, 400_000);
