// Lambda keeps init (loading the module, its own 10 s limit) apart from the invocation (the
// function's Timeout): a slow load must not eat the function's time, and a function that runs past
// its Timeout is answered by the gateway, in the API's dialect, not left hanging; it is ended
// whatever it is doing, a synchronous loop included, and nobody else waits for it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Runner } from '../../infra/local/runner.ts';
import { loadTemplate, type Template } from '../../infra/local/template.ts';
import { startOwnRunner } from '../support/runner.ts';

const real = loadTemplate();
const fn = (entry: string, path: string) => ({
  Type: 'AWS::Serverless::Function',
  Metadata: { BuildMethod: 'esbuild', BuildProperties: { EntryPoints: [entry] } },
  Properties: {
    Handler: 'index.handler',
    Timeout: 1,
    Events: {
      Api: { Type: 'Api', Properties: { RestApiId: { Ref: 'NotesApi' }, Path: path, Method: 'get' } },
    },
  },
});
const template: Template = {
  ...real,
  Resources: {
    NotesApi: real.Resources.NotesApi,
    SlowInitFunction: fn('test/fixtures/functions/slow-init.ts', '/v1/slow-init'),
    NeverAnswersFunction: fn('test/fixtures/functions/never-answers.ts', '/v1/never-answers'),
    BusyLoopFunction: fn('test/fixtures/functions/busy-loop.ts', '/v1/busy-loop'),
    NotesGetMeFunction: real.Resources.NotesGetMeFunction,
  },
};

let runner: Runner;
const lines: string[] = [];
beforeAll(async () => {
  runner = await startOwnRunner({
    template,
    log: (l) => lines.push(l),
  });
});
afterAll(() => runner.close());

it('a 1.5 s init does not count against a 1 s Timeout', async () => {
  const res = await fetch(`${runner.url}/v1/slow-init`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { remainingMs: number }).remainingMs).toBeGreaterThan(500);
  // The 1.5 s are reported as init (however long a busy machine makes the load around them).
  const init = /SlowInitFunction: built in .*, init (\d+\.\d) s/.exec(lines.join('\n'));
  expect(Number(init?.[1])).toBeGreaterThanOrEqual(1.5);
});

it('a function past its Timeout gets the gateway timeout response in the API dialect', async () => {
  const res = await fetch(`${runner.url}/v1/never-answers`);
  expect(res.status).toBe(503);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(await res.json()).toMatchObject({
    code: 50300,
    description: 'The operation timed out; retry later',
  });
  // As Lambda resets an environment whose invocation timed out: the next request initialises it again.
  expect(lines).toContain('NeverAnswersFunction timed out after 1.0 s: environment discarded');
  await fetch(`${runner.url}/v1/never-answers`);
  expect(lines.filter((l) => /^NeverAnswersFunction: built in .*, init /.test(l))).toHaveLength(2);
});

it("a function computing past its Timeout is ended, and another user's /v1/me beside it answers in under 1 s", async () => {
  // Both built and initialised (warm), so the loop starts at once and /v1/me's time is its own.
  expect((await fetch(`${runner.url}/v1/me`)).status).toBe(401);
  expect((await fetch(`${runner.url}/v1/busy-loop?ms=0`)).status).toBe(200);
  const busy = fetch(`${runner.url}/v1/busy-loop`);
  await new Promise((r) => setTimeout(r, 300)); // the loop is running
  const meStarted = performance.now();
  const me = await fetch(`${runner.url}/v1/me`);
  const meMs = performance.now() - meStarted;
  expect(me.status).toBe(401);
  expect(meMs).toBeLessThan(1_000);
  const ended = await busy;
  // The 4 s loop is ended at its 1 s Timeout, answered as a timeout (not 200 once the loop is done).
  expect(ended.status).toBe(503);
  expect(await ended.json()).toMatchObject({ code: 50300 });
  expect(lines).toContain('BusyLoopFunction timed out after 1.0 s: environment discarded');
});
