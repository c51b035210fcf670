// examples/push-device.mjs as a developer first meets it, without a stack: --help, the API origin
// from an option or the environment (no port assumed), a clear message when nothing answers there,
// and the device key kept outside the repository.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../infra/local/template.ts';

const APP = join(ROOT, 'examples', 'push-device.mjs');
const home = mkdtempSync(join(tmpdir(), 'push-device-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function app(args: string[], env: Record<string, string> = {}) {
  const { BANK_API_URL: _, PUSH_DEVICE_STATE: __, XDG_STATE_HOME: ___, ...rest } = process.env;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [APP, ...args],
      {
        cwd: ROOT,
        timeout: 30_000,
        env: { ...rest, HOME: home, LOCAL_DATA_DIR: join(home, 'none'), ...env },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('examples/push-device.mjs', () => {
  it('--help prints the usage, the options and where the key is kept (outside the repository)', async () => {
    const run = await app(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--api <origin>/);
    expect(run.stdout).toMatch(/BANK_API_URL/);
    const state = join(home, '.local', 'state', 'tri-api', 'push-device.json');
    expect(run.stdout).toContain(state);
    expect(relative(ROOT, state).startsWith('..')).toBe(true);
  });

  it.each([
    ['--api', (port: number) => ({ args: ['--api', `http://127.0.0.1:${port}`], env: {} })],
    ['BANK_API_URL', (port: number) => ({ args: [], env: { BANK_API_URL: `http://127.0.0.1:${port}` } })],
  ])(
    'an origin from %s where nothing answers: a clear message, no stack trace, nothing written',
    async (_, how) => {
      const port = await closedPort();
      const { args, env } = how(port);
      const run = await app(['activate', '--ticket', 'tkt_x', ...args], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot reach the Bank API at http://127.0.0.1:${port} (ECONNREFUSED)`);
      expect(run.stderr).toMatch(/--api <origin> or BANK_API_URL/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(home, '.local', 'state', 'tri-api', 'push-device.json'))).toBe(false);
      expect(existsSync(join(ROOT, 'push-device.json'))).toBe(false);
    },
  );

  it('no origin given and no local stack running: says how to give one', async () => {
    const run = await app(['activate', '--ticket', 'tkt_x']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no Bank API origin: pass --api <origin> or set BANK_API_URL/);
  });

  it('a key file kept in the repository (--state push-device.json, where it once was written) is ignored by git', () => {
    const ignored = (path: string) =>
      execFileSync('git', ['check-ignore', '--no-index', '-v', path], { cwd: ROOT, encoding: 'utf8' });
    for (const path of ['push-device.json', 'examples/push-device.json', 'push-device-phone.json'])
      expect(ignored(path)).toMatch(/^\.gitignore:\d+:push-device\*\.json\t/);
  });
});
