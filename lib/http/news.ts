// The News dialect (seed 001): every body is {error, response}; errors carry a short string.
// Every News response is counted for the status endpoint (lib/news/counters.ts): 2XX as served,
// 5XX as errors. Counts are flushed to DynamoDB at most once per interval per container, inline
// (awaited) on ordinary routes, or after the response on routes with a zero DynamoDB budget.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type { ApiError, ErrorType } from './errors.ts';
import type { ApiEvent, ApiResult } from './types.ts';
import type * as z from 'zod/mini';
import { newsCounters } from '../news/counters.ts';

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

const countResponses = (flush: CounterFlush): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => {
  const after = async (request: { response?: ApiResult | null }) => {
    newsCounters.record(request.response?.statusCode ?? 500);
    if (flush === 'inline') await newsCounters.flushIfDue();
    else setTimeout(() => void newsCounters.flushIfDue(), 0);
  };
  return { after, onError: after };
};

const dialect = (flush: CounterFlush): Dialect => ({
  success: (result) => JSON.stringify({ error: false, response: result.body ?? null }),
  failure: (error: ApiError) => JSON.stringify({ error: true, response: error.extra?.response ?? ENVELOPE_ERRORS[error.type] ?? 'internalError' }),
  extra: () => [countResponses(flush)],
});

export const newsDialect: Dialect = dialect('inline');
const deferredFlushDialect: Dialect = dialect('deferred');

/**
 * An operation of the News API (no request bodies: every route is a GET). Query and path schemas
 * type the parsed input; `counterFlush: 'deferred'` keeps counter writes off the call's path.
 */
export const newsOperation = <Q extends z.ZodMiniType | undefined = undefined, P extends z.ZodMiniType | undefined = undefined>(
  spec: Omit<OperationSpec<undefined, Q, P>, 'body' | 'bodyParser'>,
  operation: Operation<undefined, Q, P>,
  options: { counterFlush?: CounterFlush } = {},
) => defineOperation(options.counterFlush === 'deferred' ? deferredFlushDialect : newsDialect, spec, operation);

export * from './types.ts';
export * from './errors.ts';
