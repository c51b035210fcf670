// A function can fail; the runner cannot. A runner in a process of its own, as npm start
// runs it (test/fixtures/crash-runner.ts), serves fixture functions whose code throws outside their
// handler's promise: after it answered, while it runs, as an unhandled rejection, during init. Each
// time the open request gets API Gateway's 502 for a function error in the API's dialect, the log
// names the function, the function's next request gets a fresh environment, and the runner lives on.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { killMarked, MARKER } from '../support/processes.ts';

const marker = randomUUID();
let child: ChildProcess;
let out = '';
let url = '';

/** Waits for the runner's output to show `pattern` (the event itself, not a guessed delay). */
async function logged(pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(out)) {
    if (child.exitCode !== null) throw new Error(`the runner exited (${child.exitCode}):\n${out}`);
    if (Date.now() > deadline) throw new Error(`not logged in 60 s: ${pattern}\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const get = async (path: string) => {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  // Node itself with tsx's loader, not the tsx command: tsx relays a signal to its child only if the
  // child acknowledges it within 30 ms, which a busy machine misses (then exit 143, not the runner's 0).
  child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/crash-runner.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [MARKER]: marker },
  });
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  await logged(/\{"url":"[^"]+"\}/);
  url = JSON.parse(/\{"url":"[^"]+"\}/.exec(out)![0]).url;
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_000));
  }
  killMarked(marker);
});

describe('a function that fails outside its promise', () => {
  it('after it answered: the answer stands, the crash is logged with its name, the next request gets a new environment', async () => {
    const first = await get('/v1/fails?mode=late');
    expect(first.status).toBe(200);
    await logged(/FailsFunction crashed after it answered: Error: fails: late, after the answer/);
    expect(out).toMatch(/FailsFunction: environment discarded; the next request initialises it again/);
    const next = await get('/v1/fails');
    expect(next.status).toBe(200);
    expect(next.body.environment).not.toBe(first.body.environment);
    expect(child.exitCode).toBeNull();
  });

  it('while it runs: 502 in the REST dialect, then a new environment', async () => {
    const before = await get('/v1/fails');
    const crashed = await get('/v1/fails?mode=during');
    expect(crashed.status).toBe(502);
    expect(crashed.headers.get('x-request-id')).toBeTruthy();
    expect(crashed.body).toEqual({
      code: 50000,
      message: 'Internal server error',
      description: 'The server failed to handle the request',
    });
    expect(out).toMatch(/FailsFunction crashed while it ran: Error: fails: during/);
    const after = await get('/v1/fails');
    expect(after.status).toBe(200);
    expect(after.body.environment).not.toBe(before.body.environment);
  });

  it('an unhandled rejection: 502; on the News API in its envelope', async () => {
    expect(await get('/v1/fails?mode=rejection')).toMatchObject({ status: 502, body: { code: 50000 } });
    expect(out).toMatch(/FailsFunction crashed while it ran: Error: fails: rejection/);
    expect(await get('/api/v1/fails?mode=during')).toMatchObject({
      status: 502,
      body: { error: true, response: 'internalError' },
    });
    expect(out).toMatch(/NewsFailsFunction crashed while it ran/);
  });

  it('during init: 502, and the next request initialises it again', async () => {
    expect(await get('/v1/fails-in-init')).toMatchObject({ status: 502, body: { code: 50000 } });
    expect(out).toMatch(/FailsInInitFunction crashed while it ran: Error: fails-in-init: first init/);
    expect(await get('/v1/fails-in-init')).toMatchObject({ status: 200, body: { inits: 2 } });
  });

  it('the runner still serves every function, and stops on SIGTERM', async () => {
    expect((await get('/v1/fails')).status).toBe(200);
    expect((await get('/api/v1/fails')).status).toBe(200);
    expect(child.exitCode).toBeNull();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
