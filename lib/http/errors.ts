// The one registry of error codes for the REST dialect (Notes, Bank), and the one place domain
// errors (lib/domain/errors.ts) become status codes. The News dialect maps the same ErrorTypes to its
// envelope strings. The domain throws DomainErrors; lib/http and lib/<api>/http throw ApiErrors.
import { DomainError, LimitReached, Unavailable } from '../domain/errors.ts';

export interface FieldError {
  field: string;
  message: string;
}

export const ERRORS = {
  bad_request: { status: 400, code: 40000, message: 'Bad request' },
  unauthorized: { status: 401, code: 40100, message: 'Authentication required' },
  forbidden: { status: 403, code: 40300, message: 'Forbidden' },
  step_up_required: { status: 403, code: 40301, message: 'Multi-factor step-up required' },
  not_found: { status: 404, code: 40400, message: 'Not found' },
  method_not_allowed: { status: 405, code: 40500, message: 'Method not allowed' },
  conflict: { status: 409, code: 40900, message: 'Conflict' },
  idempotency_error: { status: 409, code: 40901, message: 'Idempotency key conflict' },
  gone: { status: 410, code: 41000, message: 'Gone' },
  precondition_failed: { status: 412, code: 41200, message: 'Precondition failed' },
  payload_too_large: { status: 413, code: 41300, message: 'Payload too large' },
  unsupported_media_type: { status: 415, code: 41500, message: 'Unsupported media type' },
  validation_failed: { status: 422, code: 42200, message: 'Validation failed' },
  too_many_requests: { status: 429, code: 42900, message: 'Too many requests' },
  internal_error: { status: 500, code: 50000, message: 'Internal server error' },
  service_unavailable: { status: 503, code: 50300, message: 'Service unavailable' },
} as const;

export type ErrorType = keyof typeof ERRORS;

export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly code: number;
  readonly description: string;
  readonly fields?: FieldError[];
  readonly headers: Record<string, string>;
  /** Extra members merged into the error body (e.g. attempts_left). */
  readonly extra?: Record<string, unknown>;

  constructor(
    type: ErrorType,
    description: string,
    opts: { fields?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(description);
    this.type = type;
    this.status = ERRORS[type].status;
    this.code = ERRORS[type].code;
    this.description = description;
    this.fields = opts.fields;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra;
  }
}

export const badRequest = (description: string, fields?: FieldError[]) =>
  new ApiError('bad_request', description, { fields });
export const notFound = (description = 'The resource does not exist') =>
  new ApiError('not_found', description);
export const forbidden = (description: string) => new ApiError('forbidden', description);
export const conflict = (description: string) => new ApiError('conflict', description);
export const validationFailed = (fields: FieldError[], description = 'One or more fields are invalid') =>
  new ApiError('validation_failed', description, { fields });
export const unauthorized = (description: string) =>
  new ApiError('unauthorized', description, { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } });

/** Each kind of domain error, as an ErrorType of this registry. */
const DOMAIN_ERRORS: Record<string, ErrorType> = {
  invalid: 'validation_failed',
  bad_input: 'bad_request',
  unauthenticated: 'unauthorized',
  forbidden: 'forbidden',
  step_up_required: 'step_up_required',
  not_found: 'not_found',
  conflict: 'conflict',
  key_in_use: 'idempotency_error',
  gone: 'gone',
  precondition_failed: 'precondition_failed',
  too_large: 'payload_too_large',
  unsupported: 'unsupported_media_type',
  limit_reached: 'too_many_requests',
  unavailable: 'service_unavailable',
};

export function fromDomainError(err: DomainError): ApiError {
  const type = DOMAIN_ERRORS[err.kind] ?? 'internal_error';
  const retryAfter =
    err instanceof LimitReached || err instanceof Unavailable ? err.retryAfterSeconds : undefined;
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
  if (type === 'unauthorized') headers['WWW-Authenticate'] = 'Bearer realm="api"';
  return new ApiError(type, err.message, { fields: err.fields, headers, extra: err.details });
}

/**
 * Maps any thrown value to an ApiError: ours pass through; domain errors by their kind; middy's
 * http errors keep their status; the rest are 500.
 */
export function toApiError(err: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  if (err instanceof DomainError) return { error: fromDomainError(err), unexpected: false };
  const e = err as { statusCode?: number; message?: string };
  const status = e?.statusCode;
  if (status && status >= 400 && status < 500) {
    const type =
      (Object.keys(ERRORS) as ErrorType[]).find((t) => ERRORS[t].status === status) ?? 'bad_request';
    const description =
      status === 415
        ? 'The request content type is not supported by this operation'
        : status === 413
          ? 'The request body is too large'
          : (e.message ?? ERRORS[type].message);
    const fields = type === 'validation_failed' ? [{ field: 'body', message: description }] : undefined;
    return { error: new ApiError(type, description, { fields }), unexpected: false };
  }
  return {
    error: new ApiError('internal_error', 'The server failed to handle the request'),
    unexpected: true,
  };
}
