// The one failure convention of the stores: a conditional write that loses throws a domain error
// chosen by the adapter from the condition that failed (Conflict with a reason, NotFound, ...); a
// table that does not answer (throttling, timeouts) is Unavailable. Everything else propagates.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { Conflict, Unavailable } from '../domain/errors.ts';

const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
]);

/** Why each item of a cancelled transaction failed ('ConditionalCheckFailed', 'TransactionConflict' ...). */
export const cancellationReasons = (err: unknown): string[] | undefined =>
  err instanceof TransactionCanceledException
    ? (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None')
    : undefined;

export const isConditionFailure = (err: unknown): boolean => err instanceof ConditionalCheckFailedException;

/** An SDK error as the convention wants it: Unavailable for a dependency that did not answer. */
export function storeFailure(err: unknown): unknown {
  const name = (err as { name?: string })?.name;
  if (name && UNAVAILABLE.has(name)) return new Unavailable(`the table did not answer (${name})`);
  return err;
}

/**
 * Runs a transaction: undefined when it committed; the cancellation reasons when a failed condition
 * or a concurrent transaction stopped it; any other failure as the convention says (storeFailure).
 */
export async function transactionOutcome(write: Promise<unknown>): Promise<string[] | undefined> {
  try {
    await write;
    return undefined;
  } catch (err) {
    const why = cancellationReasons(err);
    if (why?.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return why;
    throw storeFailure(err);
  }
}

/** Runs a single conditional write: a failed condition becomes `lost()`. */
export async function conditional(
  write: Promise<unknown>,
  lost: () => Error = () => new Conflict('changed meanwhile'),
): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (isConditionFailure(err)) throw lost();
    throw storeFailure(err);
  }
}
