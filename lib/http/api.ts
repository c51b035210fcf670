// The middy stack every operation runs in, in middy's documented order for REST APIs:
// header normalizer, event normalizer, (bearer auth), body parser, security headers, CORS,
// validator, and the dialect's error handler registered last (its onError runs first, and every
// middleware's onError runs, so error responses get the same headers). A dialect decides how
// results and errors are written.
import middy from '@middy/core';
import httpCors from '@middy/http-cors';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { servingAt } from '../config.ts';
import { type ApiError, toApiError } from './errors.ts';
import { logger } from './logger.ts';
import {
  bearerAuth,
  inputOf,
  jsonBody,
  rateLimitHeaders,
  requestIdHeader,
  requestIdOf,
  validate,
  type Authenticate,
} from './middleware.ts';
import type { ApiEvent, ApiResult, HttpRequest, HttpResult } from './types.ts';
import type * as v from 'valibot';

export interface Dialect {
  /** Body of a successful response. */
  success(result: HttpResult): string | undefined;
  /** Body of an error response (`event`: the request, for a dialect whose shape differs per route). */
  failure(error: ApiError, event?: ApiEvent): string;
  /** Extra middlewares, registered just before the error handler (e.g. News counters). */
  extra?: () => MiddlewareObj<ApiEvent, ApiResult, Error, Context>[];
}

export type Schema = v.GenericSchema | undefined;

/** What an operation declares; the types of its parsed input are inferred from the schemas. */
export interface OperationSpec<
  B extends Schema = Schema,
  Q extends Schema = Schema,
  P extends Schema = Schema,
> {
  /** Require `Authorization: Bearer <token>`, resolved by this function (the API's identity). */
  auth?: Authenticate;
  /**
   * Runs first, before authentication, and its onError sees every error response (the error
   * handler's runs before it): e.g. a limit on the refused requests of a source address.
   */
  guard?: MiddlewareObj<ApiEvent, ApiResult, Error, Context>;
  /** JSON body: `schema` validates it; `optional` allows no body at all. */
  body?: { schema: NonNullable<B>; optional?: boolean };
  /** Raw body handling for non-JSON operations (multipart); replaces the JSON parser. */
  bodyParser?: MiddlewareObj<ApiEvent, ApiResult, Error, Context>;
  query?: Q;
  path?: P;
}

type Params<T> = T extends v.GenericSchema ? v.InferOutput<T> : Record<string, string | undefined>;
type Body<T> = T extends v.GenericSchema ? v.InferOutput<T> : unknown;
export type Operation<B extends Schema, Q extends Schema, P extends Schema> = (
  req: HttpRequest<Body<B>, Params<Q>, Params<P>>,
) => Promise<HttpResult>;

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

const errorHandler = (dialect: Dialect): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => ({
  onError: async (request) => {
    const { error, unexpected } = toApiError(request.error);
    const requestId = requestIdOf(request.event, request.context);
    if (unexpected) {
      logger.error('unhandled error', {
        requestId,
        error: request.error as Error,
        path: request.event.path,
        method: request.event.httpMethod,
      });
    } else if (error.status >= 500) {
      logger.error('server error', {
        requestId,
        type: error.type,
        description: error.description,
        cause: (request.error as Error)?.message,
      });
    } else {
      logger.info('client error', { requestId, status: error.status, type: error.type });
    }
    request.response = {
      statusCode: error.status,
      headers: { ...JSON_TYPE, ...error.headers },
      body: dialect.failure(error, request.event),
    };
  },
});

/**
 * The URL the request arrived at, up to its stage (`https://<domain>/<stage>`): API Gateway's
 * domain of the request (the invoke URL's host, or a custom domain's) and the stage. Undefined
 * when the event names no domain (a test's or another service's event).
 */
export function servedBaseOf(event: ApiEvent): string | undefined {
  const { domainName, stage } = event.requestContext ?? {};
  const host = domainName ?? event.headers?.Host ?? event.headers?.host;
  return host && stage ? `https://${host}/${stage}` : undefined;
}

/** Runs `fn` as serving `event` (lib/config.ts, servingAt): its publishLinks under the request's own URL. */
export const servedFrom = <T>(event: ApiEvent, fn: () => T): T => servingAt(servedBaseOf(event), fn);

export function defineOperation<
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
>(dialect: Dialect, spec: OperationSpec<B, Q, P>, operation: Operation<B, Q, P>) {
  const stack = middy<ApiEvent, ApiResult, Error, Context>()
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer());
  if (spec.guard) stack.use(spec.guard);
  // Authentication comes before the body is parsed: an anonymous caller gets 401 whatever it sent,
  // and costs no parsing of a (possibly 4 MiB multipart) body.
  if (spec.auth) stack.use(bearerAuth(spec.auth));
  if (spec.bodyParser) stack.use(spec.bodyParser);
  else if (spec.body) stack.use(jsonBody(spec.body.optional ?? false));
  stack
    .use(httpSecurityHeaders())
    .use(
      httpCors({
        origin: '*',
        headers: 'Authorization,Content-Type,Idempotency-Key,If-Match,If-None-Match,X-MFA-Verification',
        exposeHeaders:
          'ETag,Last-Modified,Location,Link,X-Request-Id,Retry-After,X-RateLimit-UserLimit,X-RateLimit-UserRemaining,X-RateLimit-UserReset',
      }),
    )
    .use(requestIdHeader())
    .use(rateLimitHeaders());
  stack.use(validate({ body: spec.body?.schema, query: spec.query, path: spec.path }));
  for (const m of dialect.extra?.() ?? []) stack.use(m);
  stack.use(errorHandler(dialect));

  return stack.handler(async (event, context) => {
    const input = inputOf(context);
    const req = {
      body: input.body,
      query: input.query,
      path: input.path,
      headers: event.headers as Record<string, string | undefined>,
      principal: input.principal!,
      requestId: requestIdOf(event, context),
      event,
      context,
    } as Parameters<Operation<B, Q, P>>[0];
    const result = await servedFrom(event, () => operation(req));
    const body =
      result.status === 204 || result.status === 304 ? undefined : (result.raw ?? dialect.success(result));
    return {
      statusCode: result.status,
      headers: { ...(body === undefined ? {} : JSON_TYPE), ...result.headers },
      body: body ?? '',
    };
  });
}
