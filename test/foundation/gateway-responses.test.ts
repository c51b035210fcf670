// When a function cannot run at all, API Gateway answers with the template's gateway responses;
// the runner renders the same templates. For News, the status endpoint then keeps its own shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type Runner } from '../../infra/local/runner.ts';
import { freePort } from '../../infra/local/services.ts';
import { loadTemplate, type Template } from '../../infra/local/template.ts';

// The real NewsApi (with its gateway responses) and two News functions whose code is missing.
const real = loadTemplate();
const broken = (id: string) => ({
  ...real.Resources[id],
  Metadata: { ...real.Resources[id].Metadata, BuildProperties: { EntryPoints: ['functions/news/missing-on-purpose.ts'] } },
});
const template: Template = {
  ...real,
  Resources: { NewsApi: real.Resources.NewsApi, NewsGetStatusFunction: broken('NewsGetStatusFunction'), NewsListNewsFunction: broken('NewsListNewsFunction') },
};

let runner: Runner;
beforeAll(async () => {
  runner = await startRunner({ port: await freePort(), env: {}, s3Endpoint: process.env.LOCAL_S3_ENDPOINT!, bucketName: process.env.BUCKET_NAME!, template });
});
afterAll(() => runner.close());

describe('News API while its functions cannot run', () => {
  it('the status endpoint answers 503 with the offline status body', async () => {
    const res = await fetch(`${runner.url}/api/v1/status/web-api`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual({ error: true, response: { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 } });
  });

  it('another route answers with the internalError envelope', async () => {
    const res = await fetch(`${runner.url}/api/v1/news`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: true, response: 'internalError' });
  });
});
