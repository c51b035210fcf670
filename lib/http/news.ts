// The News dialect (seed 001): every body is {error, response}; errors carry a short string.
// Every News response is given to the counters the News API passes in (lib/news/http/operation.ts):
// they count 2XX as served and 5XX as errors, and flush at most once per interval per container,
// inline (awaited) on ordinary routes, or after the response on routes with a zero DynamoDB budget.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type { ApiError, ErrorType } from './errors.ts';
import type { ApiEvent, ApiResult } from './types.ts';
import type * as z from 'zod/mini';

/** What the dialect needs from the API's status counters. */
export interface ResponseCounters {
  record(status: number): void;
  flushIfDue(): Promise<void>;
}

const ENVELOPE_ERRORS: Partial<Record<ErrorType, string>> = {
  bad_request: 'badRequest',
  validation_failed: 'badRequest',
  not_found: 'notFound',
  method_not_allowed: 'methodNotAllowed',
  too_many_requests: 'tooManyRequests',
  internal_error: 'internalError',
  service_unavailable: 'serviceUnavailable',
  unsupported_media_type: 'unsupportedMediaType',
};

/** inline: a due flush is awaited before the response; deferred: it starts after the response is returned. */
export type CounterFlush = 'inline' | 'deferred';

type Counters = () => ResponseCounters;

const countResponses = (counters: Counters, flush: CounterFlush): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => {
  const after = async (request: { response?: ApiResult | null }) => {
    counters().record(request.response?.statusCode ?? 500);
    if (flush === 'inline') await counters().flushIfDue();
    else setTimeout(() => void counters().flushIfDue(), 0);
  };
  return { after, onError: after };
};

/** The envelope of an error: the short string, or the `response` an error carries (the status body). */
const failure = (error: ApiError) =>
  JSON.stringify({ error: true, response: error.extra?.response ?? ENVELOPE_ERRORS[error.type] ?? 'internalError' });

const dialect = (counters: Counters, flush: CounterFlush): Dialect => ({
  success: (result) => JSON.stringify({ error: false, response: result.body ?? null }),
  failure,
  extra: () => [countResponses(counters, flush)],
});

/**
 * The News dialect and its operations, counting responses with `counters`. An operation has no
 * request body (every route is a GET); query and path schemas type the parsed input;
 * `counterFlush: 'deferred'` keeps counter writes off the call's path.
 */
export function newsOperations(counters: Counters) {
  const inline = dialect(counters, 'inline');
  const deferred = dialect(counters, 'deferred');
  const newsOperation = <Q extends z.ZodMiniType | undefined = undefined, P extends z.ZodMiniType | undefined = undefined>(
    spec: Omit<OperationSpec<undefined, Q, P>, 'body' | 'bodyParser'>,
    operation: Operation<undefined, Q, P>,
    options: { counterFlush?: CounterFlush } = {},
  ) => defineOperation(options.counterFlush === 'deferred' ? deferred : inline, spec, operation);
  return { newsDialect: inline, newsOperation };
}

export * from './types.ts';
export * from './errors.ts';
