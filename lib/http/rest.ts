// The REST dialect of seed 002 (Notes and Bank): JSON bodies as they are; errors as
// {code, message, description, errors?: [{field, message}]}.
import { defineOperation, type Dialect, type OperationSpec } from './api.ts';
import { ERRORS, type ApiError } from './errors.ts';
import type { Schemas } from './middleware.ts';

export const restDialect: Dialect = {
  success: (result) => JSON.stringify(result.body ?? null),
  failure: (error: ApiError) => JSON.stringify({
    code: error.code,
    message: ERRORS[error.type].message,
    description: error.description,
    ...(error.fields?.length ? { errors: error.fields } : {}),
    ...error.extra,
  }),
};

/** An operation of the Notes or Bank API. */
export const restOperation = <S extends Schemas>(spec: OperationSpec<S>, operation: Parameters<typeof defineOperation<S>>[2]) =>
  defineOperation<S>(restDialect, spec, operation);

export * from './types.ts';
export * from './errors.ts';
