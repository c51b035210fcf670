// The product's front door, as a user runs it: `npm start` (infra/local/start.ts) with a data dir,
// the admin CLI against it, data surviving a restart, and no Java process outliving the runner.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/services.ts';
import { ROOT } from '../../infra/local/template.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const dataDir = mkdtempSync(join(tmpdir(), 'tri-api-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(tsx, ['infra/local/start.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: dataDir, QUIET: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const deadline = Date.now() + 90_000;
  while (!out.includes('Demo credentials')) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`npm start not ready in 90 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const javaProcessesOf = async (dir: string) => {
  const { stdout } = await run('ps', ['-eo', 'pid,args']).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter((l) => l.includes('DynamoDBLocal.jar') && l.includes(dir));
};

/** Build folders (named by runner pid) left by runners that are gone: each runner removes its own. */
const orphanBuilds = () => {
  const dir = join(ROOT, '.local', 'build');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => { try { process.kill(Number(name.split('-')[0]), 0); return false; } catch { return true; } });
};

const admin = (...args: string[]) => run(tsx, ['infra/admin/cli.ts', ...args, '--data-dir', dataDir], { cwd: ROOT, env: process.env });

describe('npm start + admin CLI', () => {
  it('serves /v1/me for a CLI-made token, keeps it across a restart, and leaves no Java behind', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toMatch(/GET\s+\/v1\/me\s+functions\/notes\/get-me\.ts/);
    expect(first.output()).toMatch(/token tri_/);

    const { stdout } = await admin('create-user', '--name', 'Cli Person', '--email', 'cli@example.org');
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['id', 'name', 'token', 'userPath']);
    const team = JSON.parse((await admin('create-team', '--owner', created.id, '--path', `cli-team-${port}`, '--name', 'CLI Team')).stdout);
    expect(team).toMatchObject({ ownerId: created.id, path: `cli-team-${port}`, visibility: 'private' });

    const me = await fetch(`http://localhost:${port}/v1/me`, { headers: { Authorization: `Bearer ${created.token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: created.id, name: 'Cli Person', email: 'cli@example.org', teams: [{ path: `cli-team-${port}` }] });

    await stop(first.child);
    expect(await javaProcessesOf(dataDir)).toEqual([]);

    const second = await start(port);
    const again = await fetch(`http://localhost:${port}/v1/me`, { headers: { Authorization: `Bearer ${created.token}` } });
    expect(again.status).toBe(200);

    const { stdout: tokenOut } = await admin('create-token', '--user', created.id);
    const { token } = JSON.parse(tokenOut);
    await admin('revoke-token', '--token', token);
    expect((await fetch(`http://localhost:${port}/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);

    await stop(second.child);
    expect(await javaProcessesOf(dataDir)).toEqual([]);
    expect(orphanBuilds()).toEqual([]);
  }, 240_000);

  it('bad input: a clear message and a non-zero exit', async () => {
    await expect(run(tsx, ['infra/admin/cli.ts', 'create-user'], { cwd: ROOT })).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/--name/) });
    await expect(run(tsx, ['infra/admin/cli.ts', 'create-team', '--owner', 'x', '--path', 'Bad Path', '--name', 'n'], { cwd: ROOT })).rejects.toMatchObject({ stderr: expect.stringMatching(/path/i) });
    await expect(run(tsx, ['infra/admin/cli.ts', 'create-user', '--name', 'x', '--data-dir', join(dataDir, 'nowhere')], { cwd: ROOT })).rejects.toMatchObject({ stderr: expect.stringMatching(/npm start/) });
  }, 60_000);
});
