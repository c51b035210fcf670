// The local runner over HTTP: exactly the template's routes, API Gateway behaviour for unknown
// routes and wrong methods, request ids, and DynamoDB request counts per call.
import { describe, expect, it } from 'vitest';
import { listRoutes } from '../../infra/local/template.ts';
import { http } from '../support/http.ts';
import { newUser } from '../support/identity.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;

describe('local runner', () => {
  it('mounts every route of template.yaml: none answers with the unknown-route response', async () => {
    for (const r of listRoutes()) {
      if (r.method === 'ANY') continue;
      const path = r.path.replace(/\{(\w+)\}/g, '1');
      const res = await http(r.method, path);
      const unknownRoute = res.status === 404 && (res.body?.description === 'No route matches this method and path' || (res.body?.response === 'notFound' && r.apiId !== 'NewsApi'));
      expect(unknownRoute, `${r.method} ${r.path} -> ${res.status} ${res.text}`).toBe(false);
    }
  });

  it('an unknown path is 404 in the dialect of the API it falls under', async () => {
    expect(await http('GET', '/v1/no-such-thing')).toMatchObject({ status: 404, body: { code: 40400 } });
    expect(await http('GET', '/v1')).toMatchObject({ status: 404 });
    expect(await http('GET', '/api/v1/no-such-thing')).toMatchObject({ status: 404, body: { error: true, response: 'notFound' } });
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
    const res = await http('OPTIONS', '/v1/me', { headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('every response carries a request id; /v1/me costs two DynamoDB requests', async () => {
    const u = await newUser();
    const res = await http('GET', '/v1/me', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    if (local) expect(res.headers.get('x-local-dynamo-requests')).toBe('2');
    const err = await http('GET', '/v1/me');
    expect(err.status).toBe(401);
    expect(err.headers.get('x-request-id')).toBeTruthy();
  });
});
