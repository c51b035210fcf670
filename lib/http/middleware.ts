// Middleware shared by both dialects. Each is a plain middy middleware object.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as v from 'valibot';
import { LimitReached } from '../domain/errors.ts';
import type { Principal } from '../domain/principal.ts';
import { unauthorized } from './errors.ts';
import { assertNoHostileFields, assertUtf8Json, parseJson } from './json-body.ts';
import type { ApiEvent, ApiResult } from './types.ts';
import { parseWith } from './validation.ts';

type M = MiddlewareObj<ApiEvent, ApiResult, Error, Context>;

/** Parsed input travels from the middlewares to the operation on the invocation's context. */
export interface ParsedInput {
  principal?: Principal;
  path?: unknown;
  query?: unknown;
  body?: unknown;
}
const INPUT = Symbol.for('tri-api.input');
export const inputOf = (context: Context): ParsedInput =>
  ((context as unknown as Record<symbol, ParsedInput>)[INPUT] ??= {});

export const requestIdOf = (event: ApiEvent, context: Context): string =>
  event.requestContext?.requestId ?? context.awsRequestId ?? 'unknown';

/** With a counted authentication, every response (errors and 429 too) carries the token's window. */
export const rateLimitHeaders = (): M => {
  const after: M['after'] = (request) => {
    const rate = inputOf(request.context).principal?.rate;
    if (!request.response || !rate) return;
    request.response.headers = {
      ...request.response.headers,
      'X-RateLimit-UserLimit': String(rate.limit),
      'X-RateLimit-UserRemaining': String(rate.remaining),
      'X-RateLimit-UserReset': String(rate.resetAt),
    };
  };
  return { after, onError: after };
};

/** Every response, success or error, carries the request id the logs carry. */
export const requestIdHeader = (): M => {
  const after: M['after'] = (request) => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      'X-Request-Id': requestIdOf(request.event, request.context),
    };
  };
  return { after, onError: after };
};

/**
 * JSON body: 415 for another content type or charset; JSON.parse; 422 naming nesting too deep,
 * `__proto__` keys and unpaired surrogates (json-body.ts), except that an absent or empty body is
 * allowed when the operation's body is optional. Malformed JSON is 422 naming `body`.
 */
export const jsonBody = (optional: boolean): M => ({
  before: async (request) => {
    const event = request.event as { body: unknown; isBase64Encoded: boolean; headers: ApiEvent['headers'] };
    const raw = event.body;
    if ((raw === null || raw === undefined || raw === '') && optional) {
      event.body = undefined;
      return;
    }
    assertUtf8Json(event.headers?.['content-type'] ?? event.headers?.['Content-Type']);
    const parsed = parseJson(raw, event.isBase64Encoded);
    assertNoHostileFields(parsed);
    event.body = parsed;
  },
});

/**
 * Resolves a bearer token to its caller, or undefined; given by the API (lib/identity/wiring.ts).
 * `request`: the event and context it came with (for an API that logs a refused token).
 */
export type Authenticate = (
  token: string,
  request?: { event: ApiEvent; context: Context },
) => Promise<Principal | undefined>;

/** Bearer token authentication; sets request.context.principal. 401 with WWW-Authenticate otherwise. */
export const bearerAuth = (authenticate: Authenticate): M => ({
  before: async (request) => {
    const header = request.event.headers?.authorization ?? request.event.headers?.Authorization;
    if (!header) throw unauthorized('The Authorization header is missing');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const principal = await authenticate(match[1], { event: request.event, context: request.context });
    if (!principal) throw unauthorized('The token is invalid or has been revoked');
    admitCounted(principal, request.context);
  },
});

/** The caller of this request; a counted call over its token's limit is refused (429, Retry-After). */
export function admitCounted(principal: Principal, context: Context): void {
  inputOf(context).principal = principal;
  if (principal.rate?.exceeded) {
    const retryAfter = Math.max(1, principal.rate.resetAt - Math.floor(Date.now() / 1000));
    throw new LimitReached(
      `This token made more than ${principal.rate.limit} calls in the current window`,
      retryAfter,
    );
  }
}

export interface Schemas {
  body?: v.GenericSchema;
  query?: v.GenericSchema;
  path?: v.GenericSchema;
}

/** Validates path, query and body with their valibot schemas; stores the parsed values in request.internal. */
export const validate = (schemas: Schemas): M => ({
  before: async (request) => {
    const e = request.event;
    const input = inputOf(request.context);
    input.path = schemas.path
      ? parseWith(schemas.path, e.pathParameters ?? {}, 'path')
      : (e.pathParameters ?? {});
    input.query = schemas.query
      ? parseWith(schemas.query, e.queryStringParameters ?? {}, 'query')
      : (e.queryStringParameters ?? {});
    input.body = schemas.body ? parseWith(schemas.body, e.body, 'body') : e.body;
  },
});
