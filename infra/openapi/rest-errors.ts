// Error responses of the REST dialect (Notes, Bank) with real examples: the code and message of
// lib/http/errors.ts for the response's status, never what a generator would make up from the
// schema (an integer's minimum, -9007199254740991). One place, so both documents agree.
import { ERRORS, type ErrorType } from '../../lib/http/errors.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A cause as the API words it, per type (the `description` member of the example). */
const SAMPLE_CAUSE: Partial<Record<ErrorType, string>> = {
  bad_request: 'The query or path parameters are invalid',
  unauthorized: 'The token is invalid or has been revoked',
  forbidden: 'You may not change this resource',
  step_up_required: 'This call needs an approved X-MFA-Verification',
  not_found: 'The resource does not exist',
  conflict: 'The resource changed concurrently; read it again',
  idempotency_error: 'This Idempotency-Key was used for another request',
  gone: 'The verification expired',
  precondition_failed: 'If-Match does not match the current ETag',
  payload_too_large: 'The body is over the size limit',
  unsupported_media_type: 'The request content type must be application/json',
  validation_failed: 'One or more fields are invalid',
  too_many_requests: 'Too many calls in this window; retry after Retry-After seconds',
  internal_error: 'Unexpected server failure',
  service_unavailable: 'A dependency did not answer in time; retry after Retry-After seconds',
};

/** Types whose body names the offending fields in `errors[]`. */
const NAMES_FIELDS = new Set<ErrorType>(['bad_request', 'validation_failed', 'payload_too_large']);

/** The body an error of `type` has, as the API sends it. */
export const restErrorExample = (type: ErrorType, field = 'title') => ({
  code: ERRORS[type].code,
  message: ERRORS[type].message,
  description: SAMPLE_CAUSE[type] ?? ERRORS[type].message,
  ...(NAMES_FIELDS.has(type) ? { errors: [{ field, message: 'Invalid value' }] } : {}),
});

/** The response of an error of `type`: the Error schema, this description, a real example. */
export const restErrorResponse = (
  type: ErrorType,
  description: string,
  headers?: Record<string, unknown>,
  /** What a dialect adds to the example body (the Notes dialect: HackMD's members). */
  more: (example: ReturnType<typeof restErrorExample>) => Record<string, unknown> = () => ({}),
) => {
  const example = restErrorExample(type);
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ref('Error'), example: { ...example, ...more(example) } } },
  };
};

/** The `code` member of the Error schema: an integer of lib/http/errors.ts, with a real example. */
export const errorCodeSchema = {
  type: 'integer',
  description: `The error's code (lib/http/errors.ts): ${Object.values(ERRORS)
    .map((e) => `${e.code} ${e.message}`)
    .join(', ')}`,
  examples: [ERRORS.not_found.code],
};
