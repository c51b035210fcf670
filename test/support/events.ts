// API Gateway REST (v1) proxy events for event-payload tests, built from the event that
// `sam local generate-event apigateway aws-proxy` prints (test/fixtures/apigateway-aws-proxy.json).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

const FIXTURE: APIGatewayProxyEvent = JSON.parse(
  readFileSync(new URL('../fixtures/apigateway-aws-proxy.json', import.meta.url), 'utf8'),
);

export interface EventInput {
  method: string;
  /** API Gateway resource, e.g. /v1/notes/{noteId} */
  resource: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Object/array/string bodies are sent as JSON; a Buffer as base64 (binary media type). */
  body?: unknown;
  token?: string;
  rawBody?: string;
}

export function apiEvent(input: EventInput): APIGatewayProxyEvent {
  const e: APIGatewayProxyEvent = structuredClone(FIXTURE);
  const path = input.resource.replace(/\{(\w+)\+?\}/g, (_m, name: string) =>
    encodeURIComponent(input.pathParameters?.[name] ?? name),
  );
  const headers: Record<string, string> = { ...(e.headers as Record<string, string>) };
  if (input.token) headers.Authorization = `Bearer ${input.token}`;
  let body: string | null = null;
  let isBase64Encoded = false;
  if (Buffer.isBuffer(input.body)) {
    body = input.body.toString('base64');
    isBase64Encoded = true;
  } else if (input.rawBody !== undefined) body = input.rawBody;
  else if (input.body !== undefined) {
    body = JSON.stringify(input.body);
    headers['Content-Type'] = 'application/json';
  }
  Object.assign(headers, input.headers ?? {});
  const requestId = randomUUID();
  return {
    ...e,
    resource: input.resource,
    path,
    httpMethod: input.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: input.query && Object.keys(input.query).length ? input.query : null,
    multiValueQueryStringParameters:
      input.query && Object.keys(input.query).length
        ? Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, [v]]))
        : null,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded,
    requestContext: {
      ...e.requestContext,
      requestId,
      resourcePath: input.resource,
      httpMethod: input.method,
      path: `/prod${path}`,
    },
  };
}

export function lambdaContext(name = 'test'): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

// Any Lambda-shaped handler (middy handlers take an optional third argument).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any, context: Context, ...rest: any[]) => Promise<APIGatewayProxyResult> | any;

export interface Invoked {
  status: number;
  headers: Record<string, string>;
  body: any;
  raw: string;
}

/** Invokes a handler with an API Gateway event; parses a JSON body. Header names lower-cased. */
export async function invoke(handler: Handler, input: EventInput): Promise<Invoked> {
  const res = await handler(apiEvent(input), lambdaContext());
  const headers = Object.fromEntries(
    Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
  );
  let body: unknown = undefined;
  if (res.body) {
    try {
      body = JSON.parse(res.body);
    } catch {
      body = res.body;
    }
  }
  return { status: res.statusCode, headers, body, raw: res.body };
}
