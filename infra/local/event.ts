// An HTTP request as API Gateway hands it to Lambda: the body (refused over API Gateway's 10 MB
// payload limit without reading the rest), and the REST (v1) proxy event (the Lambda context is
// function-worker.mjs's, which runs the handler).
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { CompiledRoute } from './routes.ts';

export const STAGE = 'local';
/** API Gateway's payload limit (10 MB). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLarge extends Error {}

/** Beyond this, a refused body is not even read through: the connection is closed. */
const DISCARD_LIMIT_BYTES = 8 * MAX_BODY_BYTES;

/**
 * After a refusal: reads the rest of the body without keeping it, so the client (still sending)
 * gets to read the answer; a client that keeps sending far beyond the limit is cut off. Resolves
 * when the body has ended or the connection is gone.
 */
export function discardRest(req: IncomingMessage): Promise<void> {
  let seen = 0;
  req.removeAllListeners('data');
  const done = new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
  });
  req.on('data', (c: Buffer) => {
    seen += c.length;
    if (seen > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
  return done;
}

/** Reads the body; rejects with BodyTooLarge as soon as it is over the limit (the rest is not kept). */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.off('data', onData);
      chunks.length = 0;
      reject(new BodyTooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface EventInput {
  req: IncomingMessage;
  url: URL;
  path: string;
  method: string;
  requestId: string;
  body: Buffer;
  route: CompiledRoute;
  pathParameters: Record<string, string>;
  binaryTypes: string[];
}

const isBinary = (contentType: string, types: string[]) =>
  types.some(
    (t) => t === contentType || t === '*/*' || (t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))),
  );

export function proxyEvent(i: EventInput): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let n = 0; n < i.req.rawHeaders.length; n += 2) {
    const [name, value] = [i.req.rawHeaders[n], i.req.rawHeaders[n + 1]];
    headers[name] = value;
    // Own keys only: a header named `constructor` or `__proto__` is a header like any other.
    multiValueHeaders[name] = [
      ...(Object.hasOwn(multiValueHeaders, name) ? multiValueHeaders[name] : []),
      value,
    ];
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of i.url.searchParams) {
    query[k] = v;
    multiQuery[k] = [...(Object.hasOwn(multiQuery, k) ? multiQuery[k] : []), v];
  }
  const contentType = (i.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const binary = isBinary(contentType, i.binaryTypes);
  const now = Date.now();
  return {
    resource: i.route.path,
    path: i.path,
    httpMethod: i.method,
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: i.route.params.length ? i.pathParameters : null,
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: i.route.apiId.toLowerCase(),
      authorizer: undefined,
      protocol: `HTTP/${i.req.httpVersion}`,
      httpMethod: i.method,
      path: `/${STAGE}${i.path}`,
      stage: STAGE,
      requestId: i.requestId,
      requestTimeEpoch: now,
      requestTime: new Date(now).toUTCString(),
      resourceId: i.route.path,
      resourcePath: i.route.path,
      domainName: i.req.headers.host ?? 'localhost',
      extendedRequestId: i.requestId,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: i.req.socket.remoteAddress ?? '127.0.0.1',
        user: null,
        userAgent: i.req.headers['user-agent'] ?? null,
        userArn: null,
      },
    },
    body: i.body.length === 0 ? null : binary ? i.body.toString('base64') : i.body.toString('utf8'),
    isBase64Encoded: i.body.length > 0 && binary,
  };
}
