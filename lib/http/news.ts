// The News dialect (the News interface document): every body is {error, response}; errors carry a short string.
// Every News response is given to the counters the News API passes in (lib/news/http/operation.ts):
// they count 2XX as served and 5XX as errors, and flush at most once per interval per container,
// after the response (never awaited by it): counting never delays a response, even when DynamoDB
// does not answer.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type { ApiError, ErrorType } from './errors.ts';
import type { ApiEvent, ApiResult } from './types.ts';
import type * as v from 'valibot';

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

type Counters = () => ResponseCounters;

const countResponses = (counters: Counters): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => {
  const after = async (request: { response?: ApiResult | null }) => {
    counters().record(request.response?.statusCode ?? 500);
    setTimeout(() => void counters().flushIfDue(), 0);
  };
  return { after, onError: after };
};

/** The envelope of an error: the short string, or the `response` an error carries (the status body). */
const failure = (error: ApiError) =>
  JSON.stringify({
    error: true,
    response: error.extra?.response ?? ENVELOPE_ERRORS[error.type] ?? 'internalError',
  });

/**
 * The News dialect and its operations, counting responses with `counters`. An operation has no
 * request body (every route is a GET); query and path schemas type the parsed input.
 */
export function newsOperations(counters: Counters) {
  const newsDialect: Dialect = {
    success: (result) => JSON.stringify({ error: false, response: result.body ?? null }),
    failure,
    extra: () => [countResponses(counters)],
  };
  const newsOperation = <
    Q extends v.GenericSchema | undefined = undefined,
    P extends v.GenericSchema | undefined = undefined,
  >(
    spec: Omit<OperationSpec<undefined, Q, P>, 'body' | 'bodyParser'>,
    operation: Operation<undefined, Q, P>,
  ) => defineOperation(newsDialect, spec, operation);
  return { newsDialect, newsOperation };
}

export * from './types.ts';
export * from './errors.ts';
