// The product's front door, as a user runs it: `npm start` (npm → sh → tsx → node) with a data
// dir, the admin CLI against it, data surviving a restart, one line per start-up phase, and a
// process tree that goes away whole: SIGTERM to npm, or kill -9 of the runner, leaves nothing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/services.ts';
import { ROOT } from '../../infra/local/template.ts';
import { busyFactor, killMarked, leftAfter, MARKER, marked } from '../support/processes.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const dataDir = mkdtempSync(join(tmpdir(), 'tri-api-start-'));
const markers: string[] = [];
afterAll(() => {
  for (const m of markers) killMarked(m);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  marker: string;
  output: () => string;
}

/** `npm start` as a user runs it; resolves once the banner is printed. */
async function npmStart(port: number, env: Record<string, string> = {}): Promise<Started> {
  const marker = randomUUID();
  markers.push(marker);
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      LOCAL_DATA_DIR: dataDir,
      QUIET: '1',
      [MARKER]: marker,
      ...env,
    },
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 240_000;
  while (!/\[start\] ready in/.test(out)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`npm start not ready in 240 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, marker, output: () => out };
}

const stackInfo = () => JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8'));
const admin = (args: string[], env: Record<string, string> = {}) =>
  run(tsx, ['infra/admin/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOCAL_DATA_DIR: dataDir, ...env },
  });
const bundlesLeft = () => (existsSync(join(dataDir, 'build')) ? readdirSync(join(dataDir, 'build')) : []);
const credentials = (seeded: { users: Array<{ id: string; token: string }>; team: string }) => ({
  team: seeded.team,
  users: seeded.users.map((u) => [u.id, u.token]),
});

describe('npm start + admin CLI', () => {
  it('phases, CLI users, idempotent seed, restart; SIGTERM to npm stops the whole tree', async () => {
    const port = await freePort();
    const first = await npmStart(port);
    const out = first.output();
    for (const phase of [
      'DynamoDB Local',
      'S3 emulator',
      'table and bucket',
      'bundling \\d+ functions',
      'demo data',
    ]) {
      expect(out).toMatch(new RegExp(`\\[start\\] ${phase}: done in \\d+\\.\\d s`));
    }
    expect(out).toMatch(/GET\s+\/v1\/me\s+functions\/notes\/get-me\.ts/);
    expect(out).toMatch(/token tri_/);
    // The Demo User's first step-up (the seeded OTP factor, local only) and the passkey page, served.
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
    expect(out).toContain(`OTP factor ${demo.otp.deviceId}: secret ${demo.otp.secret}`);
    const passkeyPage = /Passkeys in this browser[^:]*: (\S+)/.exec(out)?.[1];
    expect(passkeyPage).toBe(`http://localhost:${port}/_bank/passkey?user=${demo.users[0].id}`);
    const page = await fetch(passkeyPage!);
    expect(page.status).toBe(200);
    expect(page.headers.get('permissions-policy')).toContain('publickey-credentials-get=(self)');

    // The CLI finds the stack through LOCAL_DATA_DIR, as npm start did.
    const created = JSON.parse(
      (await admin(['create-user', '--name', 'Cli Person', '--email', 'cli@example.org'])).stdout,
    );
    expect(Object.keys(created).sort()).toEqual(['id', 'name', 'token', 'userPath']);
    const team = JSON.parse(
      (
        await admin([
          'create-team',
          '--owner',
          created.id,
          '--path',
          `cli-team-${port}`,
          '--name',
          'CLI Team',
        ])
      ).stdout,
    );
    expect(team).toMatchObject({ ownerId: created.id, path: `cli-team-${port}`, visibility: 'private' });
    const me = await fetch(`http://localhost:${port}/v1/me`, {
      headers: { Authorization: `Bearer ${created.token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      id: created.id,
      name: 'Cli Person',
      teams: [{ path: `cli-team-${port}` }],
    });

    // docs/local.md's import example: examples/news.json, then its articles are served.
    const example = JSON.parse(readFileSync(join(ROOT, 'examples', 'news.json'), 'utf8'));
    const imported = JSON.parse((await admin(['import-news', join(ROOT, 'examples', 'news.json')])).stdout);
    expect(imported).toMatchObject({ articlesTotal: expect.any(Number) });
    const article = await fetch(`http://localhost:${port}/api/v1/news/${example.articles[0].id}`);
    expect(article.status).toBe(200);
    expect(await article.json()).toMatchObject({ error: false, response: { id: example.articles[0].id } });

    // seed reuses what npm start seeded: the same users, team and tokens, twice.
    const seeded = JSON.parse((await admin(['seed'])).stdout);
    const again = JSON.parse(
      (await admin(['seed', '--data-dir', dataDir], { LOCAL_DATA_DIR: '/nowhere' })).stdout,
    );
    expect(credentials(again)).toEqual(credentials(seeded));
    expect(out).toContain(`token ${seeded.users[0].token}`);

    // SIGTERM to the npm process (what process managers send): everything stops within 10 s.
    expect(marked(first.marker).length).toBeGreaterThanOrEqual(5);
    first.child.kill('SIGTERM');
    expect(await leftAfter(first.marker, 10_000)).toEqual([]);
    expect(existsSync(join(dataDir, 'stack.json'))).toBe(false);
    expect(bundlesLeft()).toEqual([]);
    await expect(admin(['create-user', '--name', 'x'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/no local stack is running/),
    });

    // Restart: the data is still there, and the banner tells the same credentials.
    const second = await npmStart(port);
    expect(second.output()).toContain(`token ${seeded.users[0].token}`);
    expect(second.output()).toContain('the same as last time');
    const still = await fetch(`http://localhost:${port}/v1/me`, {
      headers: { Authorization: `Bearer ${created.token}` },
    });
    expect(still.status).toBe(200);

    // kill -9 of the runner (node under tsx): its children (esbuild, DynamoDB Local) and its
    // parents (tsx, sh, npm) are gone 10 s later; the stale stack.json counts as no stack.
    process.kill(stackInfo().pid, 'SIGKILL');
    expect(await leftAfter(second.marker, 10_000)).toEqual([]);
    await expect(admin(['create-user', '--name', 'x'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no local stack is running .*not running \(stale file removed\)/),
    });
  }, 600_000);

  it('a client polling from the first moment is refused or answered at once and never holds the start', async () => {
    // What wait-on, CI scripts and test harnesses do: a fresh connection every 20 ms, from before
    // npm start runs until a second after it is ready. Each poll must end within a second (refused
    // until the stack is ready, the API's answer from then on); none may keep the start-up waiting.
    const port = await freePort();
    const polls: { at: number; ended?: number; outcome?: string }[] = [];
    const poll = () => {
      const p: (typeof polls)[number] = { at: performance.now() };
      polls.push(p);
      const end = (outcome: string) => {
        p.ended ??= performance.now();
        p.outcome ??= outcome;
      };
      const req = request({ host: '127.0.0.1', port, path: '/v1/me', agent: false }, (res) => {
        res.resume();
        res.on('end', () => end(String(res.statusCode)));
      });
      req.on('error', (err: NodeJS.ErrnoException) => end(err.code ?? 'error'));
      req.end();
    };
    const poller = setInterval(poll, 20);
    let started: Started;
    try {
      started = await npmStart(port);
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      clearInterval(poller);
    }
    await new Promise((r) => setTimeout(r, 1_000));
    const now = performance.now();
    const slowest = Math.max(...polls.map((p) => (p.ended ?? now) - p.at));
    const outcomes = new Set(polls.map((p) => p.outcome));
    started.child.kill('SIGTERM');
    expect(await leftAfter(started.marker, 10_000)).toEqual([]);
    console.log(
      `start-up with a poll every 20 ms: ${started.output().match(/ready in ([\d.]+ s)/)?.[1]}; ` +
        `${polls.length} polls, slowest ${Math.round(slowest)} ms`,
    );
    // The start-up waited for no poll: a held one would have been open for longer than a second.
    expect(polls.length).toBeGreaterThan(50);
    const bound = 1_000 * busyFactor();
    expect(
      slowest,
      `slowest poll ${Math.round(slowest)} ms, bound ${Math.round(bound)} ms at load ${loadavg()[0].toFixed(1)}`,
    ).toBeLessThan(bound);
    expect(outcomes.has('ECONNREFUSED')).toBe(true); // refused while starting, at once
    expect(outcomes.has('401')).toBe(true); // answered by the API once ready
  }, 300_000);

  it('a port in use: one line naming the port and PORT, exit 1 within 5 s, no Java started', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const marker = randomUUID();
    markers.push(marker);
    const started = Date.now();
    try {
      const err = await run('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: dataDir, [MARKER]: marker },
      }).then(
        () => undefined,
        (e) => e as { code: number; stderr: string },
      );
      expect(err?.code).not.toBe(0);
      const lines = err!.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
      expect(lines).toEqual([
        `Port ${port} is in use: stop what uses it, or choose another port with PORT=<port> npm start`,
      ]);
      // 5 s on a machine with spare cores; npm, sh and tsx start slower when every core is busy.
      expect(Date.now() - started).toBeLessThan(5_000 * busyFactor());
      expect(marked(marker)).toEqual([]);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('bad input: a clear message and a non-zero exit', async () => {
    await expect(run(tsx, ['infra/admin/cli.ts', 'create-user'], { cwd: ROOT })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--name/),
    });
    await expect(
      run(tsx, ['infra/admin/cli.ts', 'create-team', '--owner', 'x', '--path', 'Bad Path', '--name', 'n'], {
        cwd: ROOT,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/path/i) });
    writeFileSync(
      join(dataDir, 'stack.json'),
      JSON.stringify({ pid: 2 ** 22 + 1, url: 'http://localhost:1' }),
    );
    await expect(admin(['create-user', '--name', 'x'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/no local stack is running/),
    });
    await expect(
      run(tsx, ['infra/admin/cli.ts', 'create-user', '--name', 'x', '--data-dir', join(dataDir, 'nowhere')], {
        cwd: ROOT,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/npm start/) });
  }, 120_000);
});
