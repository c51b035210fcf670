// Lambda's 6 MB limit on a synchronous invocation's payload, both ways, as deployed: an event over
// it is never invoked (API Gateway answers 413), and a function's result over it never reaches the
// client (API Gateway's INTEGRATION_FAILURE, in the API's dialect), however well the function ran.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYLOAD_LIMIT_BYTES } from '../../infra/local/lambdas.ts';
import type { Runner } from '../../infra/local/runner.ts';
import { loadTemplate, type Template } from '../../infra/local/template.ts';
import { startOwnRunner } from '../support/runner.ts';

const real = loadTemplate();
const route = (method: string) => ({
  Type: 'Api',
  Properties: { RestApiId: { Ref: 'NotesApi' }, Path: '/v1/sized', Method: method },
});
const template: Template = {
  ...real,
  Resources: {
    NotesApi: real.Resources.NotesApi,
    SizedAnswerFunction: {
      Type: 'AWS::Serverless::Function',
      Metadata: {
        BuildMethod: 'esbuild',
        BuildProperties: { EntryPoints: ['test/fixtures/functions/sized-answer.ts'] },
      },
      Properties: {
        Handler: 'index.handler',
        Timeout: 10,
        Events: { Get: route('get'), Post: route('post') },
      },
    },
  },
};

let runner: Runner;
const lines: string[] = [];
/** What the runner says of the function's invocations (with the function's own output). */
const errors: string[] = [];
beforeAll(async () => {
  runner = await startOwnRunner({
    template,
    log: (l) => lines.push(l),
    functionOutput: ({ text }) => errors.push(text),
  });
});
afterAll(() => runner.close());

it('returns a result just under 6 MB, and refuses one over it as API Gateway does', async () => {
  // The result's JSON holds the body plus statusCode and headers: 1 KB under the limit fits.
  const fits = await fetch(`${runner.url}/v1/sized?bytes=${PAYLOAD_LIMIT_BYTES - 1024}`);
  expect(fits.status).toBe(200);
  expect((await fits.text()).length).toBe(PAYLOAD_LIMIT_BYTES - 1024);

  const over = await fetch(`${runner.url}/v1/sized?bytes=${PAYLOAD_LIMIT_BYTES + 1}`);
  // The Notes API's gateway response for INTEGRATION_FAILURE (template.yaml): 503 in its dialect.
  expect(over.status).toBe(503);
  expect(over.headers.get('x-request-id')).toBeTruthy();
  expect(await over.json()).toMatchObject({ code: 50300 });
  expect(errors.join('\n')).toContain(
    'SizedAnswerFunction: Lambda Customer Function Error: Response payload size exceeded maximum allowed payload size (6291556 bytes).',
  );
});

it('refuses a request whose event is over 6 MB with 413, without invoking the function', async () => {
  const invocations = () => lines.filter((l) => /-> SizedAnswerFunction 200/.test(l)).length;
  const before = invocations();
  const fits = await fetch(`${runner.url}/v1/sized`, { method: 'POST', body: 'y'.repeat(5_000_000) });
  expect(fits.status).toBe(200);
  expect(await fits.text()).toBe('5000000');
  // 7 MB: under API Gateway's 10 MB, over Lambda's 6 MB.
  const over = await fetch(`${runner.url}/v1/sized`, { method: 'POST', body: 'y'.repeat(7_000_000) });
  expect(over.status).toBe(413);
  expect(await over.json()).toMatchObject({ code: 41300 });
  expect(invocations()).toBe(before + 1);
  expect(errors.join('\n')).toContain(
    'Request payload size exceeded maximum allowed payload size (6291556 bytes).',
  );
});
