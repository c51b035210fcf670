// The REST dialect of the Bank interface document (Notes and Bank): JSON bodies as they are; errors as
// {code, message, description, errors?: [{field, message}]}.
import { defineOperation, type Dialect, type Operation, type OperationSpec } from './api.ts';
import type { Authenticate } from './middleware.ts';
import type * as v from 'valibot';
import { ERRORS, type ApiError } from './errors.ts';

/** The error body of the REST dialect; `more` (another dialect's members) go before `extra`. */
export const restErrorBody = (error: ApiError, more: Record<string, unknown> = {}) => ({
  code: error.code,
  message: ERRORS[error.type].message,
  description: error.description,
  ...(error.fields?.length ? { errors: error.fields } : {}),
  ...more,
  ...error.extra,
});

export const restDialect: Dialect = {
  success: (result) => JSON.stringify(result.body ?? null),
  failure: (error: ApiError) => JSON.stringify(restErrorBody(error)),
};

type Schema = v.GenericSchema | undefined;

/** An operation of the Notes or Bank API. */
export const restOperation = <
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
>(
  spec: OperationSpec<B, Q, P>,
  operation: Operation<B, Q, P>,
) => defineOperation(restDialect, spec, operation);

/**
 * The REST operations of an API whose every route authenticates its caller with `authenticate`; a
 * dialect of its own (`dialect`) may add members to the error bodies.
 */
export const authenticatedOperations =
  (authenticate: Authenticate, dialect: Dialect = restDialect) =>
  <B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
    spec: Omit<OperationSpec<B, Q, P>, 'auth'>,
    operation: Operation<B, Q, P>,
  ) =>
    defineOperation(dialect, { ...spec, auth: authenticate }, operation);

export * from './types.ts';
export * from './errors.ts';
