// The Docker-free local API Gateway: mounts every Api event of every function in template.yaml on
// one HTTP port, turns each request into an API Gateway REST (v1) proxy event, invokes the
// function's bundle in-process, and writes its result back. Requests that reach no function get
// the template's own gateway responses (404 unknown route, 503 integration failure, ...).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { metered } from '../../lib/data/metering.ts';
import { Bundles } from './bundles.ts';
import { localClientConfig } from './services.ts';
import { binaryMediaTypes, gatewayResponses, type GatewayResponse, listFunctions, listRoutes, loadTemplate, ROOT, type Route, type Template } from './template.ts';
import { renderHeader, renderTemplate } from './vtl.ts';
import { installScopedEnv, literalFunctionEnv, withFunctionEnv } from './function-env.ts';

export const STAGE = 'local';

interface CompiledRoute extends Route { regex: RegExp; params: string[]; staticScore: number }

const compile = (route: Route): CompiledRoute => {
  const params: string[] = [];
  const segments = route.path.split('/').filter(Boolean);
  const pattern = segments.map((s) => {
    const m = /^\{(\w+)(\+?)\}$/.exec(s);
    if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    params.push(m[1]);
    return m[2] ? '(.+)' : '([^/]+)';
  }).join('/');
  // Static segments outrank parameters at the same position (as in API Gateway).
  const staticScore = segments.reduce((score, s, i) => score + (s.startsWith('{') ? 0 : 2 ** (20 - i)), 0);
  return { ...route, regex: new RegExp(`^/${pattern}/?$`), params, staticScore };
};

export interface RunnerOptions {
  port: number;
  host?: string;
  env: Record<string, string>;
  s3Endpoint: string;
  bucketName: string;
  watch?: boolean;
  template?: Template;
  log?: (line: string) => void;
}

export interface Runner { url: string; port: number; routes: Route[]; close(): Promise<void>; bundles: Bundles }

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export async function startRunner(opts: RunnerOptions): Promise<Runner> {
  const template = opts.template ?? loadTemplate();
  Object.assign(process.env, opts.env);
  installScopedEnv();
  const functionEnv = literalFunctionEnv(template);
  const routes = listRoutes(template).map(compile);
  const bundles = new Bundles(listFunctions(template).map((f) => ({ id: f.id, entry: f.entry })));
  await bundles.start(opts.watch ?? false);
  const s3 = new S3Client({ ...localClientConfig(opts.s3Endpoint), forcePathStyle: true });
  const binaryTypes = new Map<string, string[]>();
  const apiIds = [...new Set(routes.map((r) => r.apiId))];
  for (const api of apiIds) binaryTypes.set(api, binaryMediaTypes(api, template));
  const log = opts.log ?? (() => {});

  /** The API a path that matches no route belongs to: the one sharing the most leading segments. */
  const apiOfPath = (path: string): string => {
    const segs = path.split('/').filter(Boolean);
    let best = apiIds[0]; let bestLen = -1;
    for (const r of routes) {
      const rs = r.path.split('/').filter(Boolean);
      let n = 0;
      while (n < segs.length && n < rs.length && (rs[n] === segs[n])) n += 1;
      if (n > bestLen) { best = r.apiId; bestLen = n; }
    }
    return best;
  };

  const gatewayResponse = (res: ServerResponse, apiId: string, type: string, ctx: { requestId: string; resourcePath: string; method: string; path: string; message: string }) => {
    const all = gatewayResponses(apiId, template);
    const serverSide = type.startsWith('INTEGRATION') || type === 'DEFAULT_5XX';
    const gr: GatewayResponse = all[type] ?? all[serverSide ? 'DEFAULT_5XX' : 'DEFAULT_4XX'] ?? {};
    const status = gr.StatusCode ?? (serverSide ? 502 : 403);
    const c = { requestId: ctx.requestId, resourcePath: ctx.resourcePath, httpMethod: ctx.method, path: ctx.path, errorMessage: ctx.message };
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    for (const [k, v] of Object.entries(gr.ResponseParameters?.Headers ?? {})) headers[k] = renderHeader(String(v), c);
    const body = renderTemplate(gr.ResponseTemplates?.['application/json'] ?? '{"message":$context.error.messageString}', c);
    res.writeHead(status, headers).end(body);
  };

  const serveImage = async (res: ServerResponse, key: string) => {
    try {
      const obj = await s3.send(new GetObjectCommand({ Bucket: opts.bucketName, Key: key }));
      const bytes = Buffer.from(await obj.Body!.transformToByteArray());
      res.writeHead(200, { 'Content-Type': obj.ContentType ?? 'application/octet-stream', 'Content-Length': bytes.length, 'Cache-Control': 'public, max-age=31536000, immutable' }).end(bytes);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    }
  };

  const serveOpenApi = (res: ServerResponse, name: string) => {
    const file = join(ROOT, 'openapi', `${name}.json`);
    if (!/^[\w-]+$/.test(name) || !existsSync(file)) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(readFileSync(file));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    const method = (req.method ?? 'GET').toUpperCase();
    const requestId = randomUUID();

    if (method === 'GET' && path.startsWith('/_images/')) return serveImage(res, path.slice('/_images/'.length));
    if (method === 'GET' && path.startsWith('/openapi/') && path.endsWith('.json')) return serveOpenApi(res, path.slice('/openapi/'.length, -'.json'.length));

    const candidates = routes.filter((r) => r.regex.test(url.pathname));
    if (candidates.length === 0) {
      log(`${method} ${path} -> no route`);
      return gatewayResponse(res, apiOfPath(path), 'MISSING_AUTHENTICATION_TOKEN', { requestId, resourcePath: '', method, path, message: 'Missing Authentication Token' });
    }
    const best = Math.max(...candidates.map((r) => r.staticScore));
    const sameResource = candidates.filter((r) => r.staticScore === best);
    const route = sameResource.find((r) => r.method === method) ?? sameResource.find((r) => r.method === 'ANY');
    if (!route) {
      return gatewayResponse(res, sameResource[0].apiId, 'MISSING_AUTHENTICATION_TOKEN', { requestId, resourcePath: sameResource[0].path, method, path, message: 'Missing Authentication Token' });
    }

    const body = await readBody(req);
    const match = route.regex.exec(url.pathname)!;
    const pathParameters = Object.fromEntries(route.params.map((p, i) => [p, decodeURIComponent(match[i + 1])]));
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
      headers[name] = value;
      // Own keys only: a header named `constructor` or `__proto__` is a header like any other.
      multiValueHeaders[name] = [...(Object.hasOwn(multiValueHeaders, name) ? multiValueHeaders[name] : []), value];
    }
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) { query[k] = v; multiQuery[k] = [...(Object.hasOwn(multiQuery, k) ? multiQuery[k] : []), v]; }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const binary = (binaryTypes.get(route.apiId) ?? []).some((t) => t === contentType || (t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))) || t === '*/*');
    const now = Date.now();
    const event: APIGatewayProxyEvent = {
      resource: route.path,
      path,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: Object.keys(query).length ? query : null,
      multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
      pathParameters: route.params.length ? pathParameters : null,
      stageVariables: null,
      requestContext: {
        accountId: '123456789012', apiId: route.apiId.toLowerCase(), authorizer: undefined, protocol: `HTTP/${req.httpVersion}`,
        httpMethod: method, path: `/${STAGE}${path}`, stage: STAGE, requestId, requestTimeEpoch: now,
        requestTime: new Date(now).toUTCString(), resourceId: route.path, resourcePath: route.path,
        domainName: req.headers.host ?? 'localhost', extendedRequestId: requestId,
        identity: {
          accessKey: null, accountId: null, apiKey: null, apiKeyId: null, caller: null, clientCert: null,
          cognitoAuthenticationProvider: null, cognitoAuthenticationType: null, cognitoIdentityId: null, cognitoIdentityPoolId: null,
          principalOrgId: null, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', user: null, userAgent: req.headers['user-agent'] ?? null, userArn: null,
        },
      },
      body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
      isBase64Encoded: body.length > 0 && binary,
    };
    const deadline = Date.now() + 10_000;
    const context: Context = {
      callbackWaitsForEmptyEventLoop: true, functionName: route.functionId, functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${route.functionId}`, memoryLimitInMB: '512',
      awsRequestId: randomUUID(), logGroupName: `/aws/lambda/${route.functionId}`, logStreamName: 'local',
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => {}, fail: () => {}, succeed: () => {},
    };

    let result: APIGatewayProxyResult;
    let meter;
    try {
      const handler = bundles.handler(route.functionId, route.handler);
      ({ result, meter } = await withFunctionEnv(functionEnv.get(route.functionId) ?? {}, () =>
        metered(() => handler(event, context) as Promise<APIGatewayProxyResult>)));
      if (!result || typeof result.statusCode !== 'number') throw new Error('malformed Lambda proxy response');
    } catch (err) {
      console.error(`[runner] ${route.functionId} failed: ${(err as Error).stack ?? err}`);
      return gatewayResponse(res, route.apiId, 'INTEGRATION_FAILURE', { requestId, resourcePath: route.path, method, path, message: 'Internal server error' });
    }
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) out[k] = String(v);
    for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) out[k] = v.map(String);
    out['X-Local-Dynamo-Requests'] = String(meter.requests);
    out['X-Local-Dynamo-Capacity'] = String(meter.capacity);
    out['X-Local-Duration-Ms'] = (performance.now() - started).toFixed(2);
    const payload = result.body === undefined || result.body === null ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
    log(`${method} ${path} -> ${route.functionId} ${result.statusCode} (${meter.requests} DynamoDB requests)`);
    res.writeHead(result.statusCode, out).end(method === 'HEAD' ? undefined : payload);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error('[runner] unexpected', err);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"message":"local runner error"}');
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://localhost:${port}`, port, routes, bundles,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bundles.stop();
      s3.destroy();
    },
  };
}
