// The REST dialect of seed 002 (Notes and Bank): JSON bodies as they are; errors as
// {code, message, description, errors?: [{field, message}]}.
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type * as z from 'zod/mini';
import { ERRORS, type ApiError } from './errors.ts';

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
export const restOperation = <B extends z.ZodMiniType | undefined = undefined, Q extends z.ZodMiniType | undefined = undefined, P extends z.ZodMiniType | undefined = undefined>(
  spec: OperationSpec<B, Q, P>,
  operation: Operation<B, Q, P>,
) => defineOperation(restDialect, spec, operation);

export * from './types.ts';
export * from './errors.ts';
