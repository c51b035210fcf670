// The local runner over HTTP: exactly the template's routes, API Gateway behaviour for unknown
// routes and wrong methods, request ids, and DynamoDB request counts per call.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listRoutes } from '../../infra/local/template.ts';
import { http } from '../support/http.ts';
import { newUser } from '../support/identity.ts';
import { expectBudget } from '../notes/helpers.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;

describe('local runner', () => {
  it('mounts every route of template.yaml: none answers with the unknown-route response', async () => {
    for (const r of listRoutes()) {
      if (r.method === 'ANY') continue;
      const path = r.path.replace(/\{(\w+)\}/g, '1');
      const res = await http(r.method, path);
      const unknownRoute =
        res.status === 404 &&
        (res.body?.description === 'No route matches this method and path' ||
          (res.body?.response === 'notFound' && r.apiId !== 'NewsApi'));
      expect(unknownRoute, `${r.method} ${r.path} -> ${res.status} ${res.text}`).toBe(false);
    }
  });

  it('an unknown path is 404 in the dialect of the API it falls under', async () => {
    expect(await http('GET', '/v1/no-such-thing')).toMatchObject({ status: 404, body: { code: 40400 } });
    expect(await http('GET', '/v1')).toMatchObject({ status: 404 });
    expect(await http('GET', '/api/v1/no-such-thing')).toMatchObject({
      status: 404,
      body: { error: true, response: 'notFound' },
    });
  });

  it('a known path with a wrong method is 405 with Allow', async () => {
    const res = await http('DELETE', '/v1/me');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body).toMatchObject({ code: 40500 });
    const news = await http('POST', '/api/v1/news');
    expect(news).toMatchObject({ status: 405, body: { error: true, response: 'methodNotAllowed' } });
    expect(news.headers.get('allow')).toBe('GET');
  });

  it('CORS preflight succeeds with the allowed methods', async () => {
    const res = await http('OPTIONS', '/v1/me', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('every response carries a request id; /v1/me costs two DynamoDB requests (+1 opening a rate window)', async () => {
    const u = await newUser();
    const res = await http('GET', '/v1/me', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expectBudget(res, 2);
    const err = await http('GET', '/v1/me');
    expect(err.status).toBe(401);
    expect(err.headers.get('x-request-id')).toBeTruthy();
  });
});

// What API Gateway refuses by itself, the runner refuses the same way: in the API's dialect, with a
// request id and the security headers the functions send.
const refusal = (res: { status: number; headers: Headers }, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('strict-transport-security')).toBeTruthy();
};

describe.skipIf(!local)('local runner: refusals', () => {
  it('malformed percent-encoding is 400 in the API dialect, never 500', async () => {
    const notes = await http('GET', '/v1/notes/%ZZ');
    refusal(notes, 400);
    expect(notes.body).toMatchObject({ code: 40000, message: 'Bad request' });
    const news = await http('GET', '/api/v1/news/%ff');
    refusal(news, 400);
    expect(news.body).toEqual({ error: true, response: 'badRequest' });
    refusal(await http('GET', '/api/transfers/%E0%A4%A'), 400);
  });

  it('an unknown route is 404 with the security headers', async () => {
    const res = await http('GET', '/v1/nothing-here');
    refusal(res, 404);
    expect(res.body).toMatchObject({ code: 40400 });
  });

  it('a body over 10 MB is 413 before authentication, announced or streamed', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    const announced = await http('POST', '/v1/notes', {
      raw: big,
      headers: { 'Content-Type': 'application/json' },
    });
    refusal(announced, 413);
    expect(announced.body).toMatchObject({ code: 41300 });
    // Chunked, no Content-Length: refused once 10 MB have arrived (the rest is not kept).
    const chunks = async function* () {
      for (let i = 0; i < 44; i += 1) yield Buffer.alloc(256 * 1024, 0x61);
    };
    const res = await fetch(`${process.env.TEST_BASE_URL}/api/transfers`, {
      method: 'POST',
      body: ReadableStream.from(chunks()),
      duplex: 'half',
      headers: { 'Content-Type': 'application/json' },
    } as RequestInit).catch((err: Error) => err);
    if (res instanceof Error) throw res;
    refusal(res, 413);
    expect(await res.json()).toMatchObject({ code: 41300 });
  });

  it('/_images/ serves image objects only (notes/), with their content type, nosniff and a CSP', async () => {
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const { localClientConfig } = await import('../../infra/local/services.ts');
    const s3 = new S3Client({ ...localClientConfig(process.env.LOCAL_S3_ENDPOINT!), forcePathStyle: true });
    const key = `notes/${randomUUID()}/image.png`;
    const index = `search/${randomUUID()}/1.json.gz`;
    for (const Key of [key, index])
      await s3.send(
        new PutObjectCommand({
          Bucket: process.env.BUCKET_NAME!,
          Key,
          Body: Buffer.from('png?'),
          ContentType: 'image/png',
        }),
      );
    s3.destroy();
    // Anything else in the bucket (a workspace's search index) is not an image: never served.
    expect((await http('GET', `/_images/${index}`)).status).toBe(404);
    const obj = await http('GET', `/_images/${key}`);
    expect(obj.status).toBe(200);
    expect(obj.headers.get('content-type')).toBe('image/png');
    expect(obj.headers.get('x-content-type-options')).toBe('nosniff');
    expect(obj.headers.get('content-security-policy')).toBe("default-src 'none'");
    for (const listing of ['/_images/', '/_images/notes/', '/_images/?list-type=2', '/_images']) {
      const res = await http('GET', listing);
      expect(res.status, listing).toBe(404);
      expect(res.text, listing).not.toContain(key);
    }
  });

  it('/_images/ never reaches outside notes/: encoded dot segments, double encoding and backslashes are 404', async () => {
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const { localClientConfig } = await import('../../infra/local/services.ts');
    const s3 = new S3Client({ ...localClientConfig(process.env.LOCAL_S3_ENDPOINT!), forcePathStyle: true });
    const workspace = randomUUID();
    const secret = `private words ${randomUUID()}`;
    await s3.send(
      new PutObjectCommand({
        Bucket: process.env.BUCKET_NAME!,
        Key: `search/${workspace}/1.sqlite`,
        Body: Buffer.from(secret),
      }),
    );
    s3.destroy();
    // Sent byte for byte (fetch would resolve `%2e%2e` and turn `\\` into `/` before sending).
    const { port } = new URL(process.env.LOCAL_RUNNER_URL!);
    const raw = (path: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        })
          .on('error', reject)
          .end();
      });
    const target = `search%2f${workspace}%2f1.sqlite`;
    for (const path of [
      `/_images/notes/..%2f${target}`,
      `/_images/notes/%2e%2e%2f${target}`,
      `/_images/notes/%2E%2E/${target.replaceAll('%2f', '/')}`,
      `/_images/notes/x/..%2f..%2f${target}`,
      `/_images/notes/%252e%252e%252f${target}`,
      `/_images/notes/..%5c${target.replaceAll('%2f', '%5c')}`,
      `/_images/notes\\..\\${target.replaceAll('%2f', '\\')}`,
      `/_images/notes/..\\${target}`,
      `/_images/notes/%2e%2e/%2e%2e/_images/${target}`,
      `/_images/${target}`,
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain(secret);
    }
  });

  it('serves the OpenAPI documents with this runner as their first server', async () => {
    for (const api of ['notes', 'news', 'bank']) {
      const res = await http('GET', `/openapi/${api}.json`);
      expect(res.status).toBe(200);
      expect(res.body.servers[0].url).toBe(process.env.LOCAL_RUNNER_URL);
    }
  });

  it("names the loopback origin the caller used as the documents' first server, never another Host", async () => {
    const { port } = new URL(process.env.LOCAL_RUNNER_URL!);
    const firstServer = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/openapi/notes.json', headers: { Host: host } },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve(JSON.parse(text).servers[0].url));
          },
        );
        req.on('error', reject).end();
      });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`])
      expect(await firstServer(host)).toBe(`http://${host}`);
    // Any other name is not trusted into a document: the runner's own URL.
    for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`, 'localhost:1/x'])
      expect(await firstServer(host)).toBe(process.env.LOCAL_RUNNER_URL);
    // The deployed stage follows, as the committed document has it.
    const res = await http('GET', '/openapi/bank.json');
    expect(res.body.servers[1].url).toBe('https://{api}.execute-api.{region}.amazonaws.com/{stage}');
  });

  it('serves a favicon for the docs page', async () => {
    const res = await fetch(`${process.env.LOCAL_RUNNER_URL}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });
});
