// The News dialect (seed 001): every body is {error, response}; errors carry a short string.
import { defineOperation, type Dialect, type OperationSpec } from './api.ts';
import type { ApiError, ErrorType } from './errors.ts';
import type { Schemas } from './middleware.ts';

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

export const newsDialect: Dialect = {
  success: (result) => JSON.stringify({ error: false, response: result.body ?? null }),
  failure: (error: ApiError) => JSON.stringify({ error: true, response: error.extra?.response ?? ENVELOPE_ERRORS[error.type] ?? 'internalError' }),
  extra: () => [],
};

/** An operation of the News API. */
export const newsOperation = <S extends Schemas>(spec: OperationSpec<S>, operation: Parameters<typeof defineOperation<S>>[2]) =>
  defineOperation<S>(newsDialect, spec, operation);

export * from './types.ts';
export * from './errors.ts';
