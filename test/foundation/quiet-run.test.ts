// A quiet test run (vitest.config.ts, test/support/function-logs.ts): a passing test prints
// nothing of its own or of the functions it called; a failing one shows its console output, what
// it wrote to stdout and the logs of the functions it called. Checked by running vitest, with the
// suite's own settings, on a fixture of one passing and one failing test (test/fixtures/quiet).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

it('a passing test shows no function log line; a failing one shows its own and its functions', () => {
  const marker = randomUUID();
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('TRI_API_TEST')),
  );
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', 'test/fixtures/quiet/vitest.config.ts', '--color=false'],
    { cwd: ROOT, env: { ...env, QUIET_MARKER: marker, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 },
  );
  const out = `${run.stdout}${run.stderr}`;
  expect(run.status, out).toBe(1);
  expect(out).toMatch(/1 failed \| 1 passed/);
  for (const line of ['FUNCTION-OF-FAILING', 'IN-PROCESS-OF-FAILING', 'CONSOLE-OF-FAILING'])
    expect(out, line).toContain(`${line}-${marker}`);
  expect(out).toContain(`LogsFunction | {"level":"INFO","message":"FUNCTION-OF-FAILING-${marker}"}`);
  for (const line of ['FUNCTION-OF-PASSING', 'IN-PROCESS-OF-PASSING', 'CONSOLE-OF-PASSING'])
    expect(out, line).not.toContain(`${line}-${marker}`);
});
