// The News dialect (seed 001): every body is {error, response}; errors carry a short string.
// Every News response is counted for the status endpoint (lib/news/counters.ts): 2XX as served,
// 5XX as errors. Counts are flushed to DynamoDB at most once per interval per container, after the
// response (never awaited by it): counting never delays a response, even when DynamoDB does not answer.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type { ApiError, ErrorType } from './errors.ts';
import type { ApiEvent, ApiResult } from './types.ts';
import type { z } from 'zod';
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

const countResponses = (): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => {
  const after = async (request: { response?: ApiResult | null }) => {
    newsCounters.record(request.response?.statusCode ?? 500);
    setTimeout(() => void newsCounters.flushIfDue(), 0);
  };
  return { after, onError: after };
};

export const newsDialect: Dialect = {
  success: (result) => JSON.stringify({ error: false, response: result.body ?? null }),
  failure: (error: ApiError) => JSON.stringify({ error: true, response: error.extra?.response ?? ENVELOPE_ERRORS[error.type] ?? 'internalError' }),
  extra: () => [countResponses()],
};

/**
 * An operation of the News API (no request bodies: every route is a GET). Query and path schemas
 * type the parsed input.
 */
export const newsOperation = <Q extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined>(
  spec: Omit<OperationSpec<undefined, Q, P>, 'body' | 'bodyParser'>,
  operation: Operation<undefined, Q, P>,
) => defineOperation(newsDialect, spec, operation);

export * from './types.ts';
export * from './errors.ts';
