// The errors of the domain: what went wrong, in the domain's words. No status codes here: each
// dialect maps them in one place (lib/http/errors.ts for REST; the News dialect maps the result).
// Stores use the same types for a conditional write that lost (see lib/data/failures.ts).

export interface FieldProblem {
  field: string;
  message: string;
}

export interface ErrorOptions {
  /** The fields of the input the error is about. */
  fields?: FieldProblem[];
  /** Facts the caller may act on (e.g. attempts_left), added to the error body. */
  details?: Record<string, unknown>;
  /** Which condition failed (stores: 'version', 'permalink', ...), so the domain can tell them apart. */
  reason?: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: string;
  readonly fields?: FieldProblem[];
  readonly details?: Record<string, unknown>;
  readonly reason?: string;
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message);
    this.fields = opts.fields;
    this.details = opts.details;
    this.reason = opts.reason;
  }
}

/** The input is well-formed but not acceptable (a field's value, a combination of fields). */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
}
/** A reference in the input (a cursor, a parameter) does not make sense. */
export class BadInput extends DomainError {
  readonly kind = 'bad_input';
}
/** The caller is not (or no longer) a known user. */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}
/** The operation needs a recent, approved, unused second-factor verification. */
export class StepUpRequired extends DomainError {
  readonly kind = 'step_up_required';
}
export class NotFound extends DomainError {
  readonly kind = 'not_found';
}
/** Another request changed the same thing first, or the thing is already in the wanted state. */
export class Conflict extends DomainError {
  readonly kind: string = 'conflict';
}
/** An idempotency key is used by another request, or by a request still in flight. */
export class KeyInUse extends Conflict {
  override readonly kind = 'key_in_use';
}
/** The thing existed but is over (an expired verification, a deleted factor). */
export class Gone extends DomainError {
  readonly kind = 'gone';
}
/** The caller's precondition (an ETag it holds) no longer holds. */
export class PreconditionFailed extends DomainError {
  readonly kind = 'precondition_failed';
}
export class TooLarge extends DomainError {
  readonly kind = 'too_large';
}
export class Unsupported extends DomainError {
  readonly kind = 'unsupported';
}

/** A limit was reached (attempts, rate); retry after `retryAfterSeconds` (0: start over). */
export class LimitReached extends DomainError {
  readonly kind = 'limit_reached';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    opts: ErrorOptions = {},
  ) {
    super(message, opts);
  }
}

/** A dependency (the table, the bucket) did not answer in time; retry after `retryAfterSeconds`. */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
    opts: ErrorOptions = {},
  ) {
    super(message, opts);
  }
}

/** A Conflict (or a subclass) raised for the given failed condition. */
export const isConflict = (err: unknown, reason?: string): err is Conflict =>
  err instanceof Conflict && (reason === undefined || err.reason === reason);
