// What the domain makes of a refused conditional write that the caller's input does not explain.
import { ApiError, conflict } from '../http/errors.ts';
import { WriteRefused, type Completion } from './store.ts';

/** Builds the completion of a reserved Idempotency-Key from the operation's result. */
export type Complete<T> = ((result: T) => Completion) | undefined;

/** A write refused because a concurrent request got there first: 409, never 500. */
export function refusalToError(err: unknown): unknown {
  if (!(err instanceof WriteRefused)) return err;
  if (err.reason === 'idempotency') return new ApiError('idempotency_error', 'The Idempotency-Key was taken over by another request; retry');
  return conflict('A concurrent request changed the same resource; retry');
}
