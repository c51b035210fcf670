// The Notes dialect: the REST dialect's error body (code, message, description, errors) with the
// members HackMD documents for the same route and status beside it, so a client written against
// HackMD finds what it reads:
// - 422 on every route: `message: "Validation Failed"` and `details` (field → {message}); HackMD's
//   wording of `message` wins over the registry's ("Validation failed"), the only member the two share;
// - webhook routes, any other status: `error: {message, code}` (code: the error's type, a string);
// - every other route: `error` (the description); versions add `error_code`, comments `errorCode`
//   (the error's type, unless the domain named a more precise one).
import type { ApiEvent } from '../../../http/types.ts';
import { type ApiError, restDialect, restErrorBody } from '../../../http/rest.ts';
import type { Dialect } from '../../../http/api.ts';

export const HACKMD_VALIDATION_MESSAGE = 'Validation Failed';

/** `details` of HackMD's ApiValidationError: each field with its messages. */
const detailsOf = (error: ApiError) => {
  const details: Record<string, { message: string }> = {};
  for (const { field, message } of error.fields ?? [{ field: 'body', message: error.description }]) {
    details[field] = { message: details[field] ? `${details[field].message}; ${message}` : message };
  }
  return details;
};

/** HackMD's members of an error body on the route `resource` (the path template). */
export function hackmdMembers(error: ApiError, resource = ''): Record<string, unknown> {
  if (error.type === 'validation_failed')
    return { message: HACKMD_VALIDATION_MESSAGE, details: detailsOf(error) };
  if (resource.includes('/webhooks')) return { error: { message: error.description, code: error.type } };
  return {
    error: error.description,
    ...(resource.includes('/versions') ? { error_code: error.type } : {}),
    ...(resource.includes('/comments') ? { errorCode: error.type } : {}),
  };
}

export const notesDialect: Dialect = {
  success: restDialect.success,
  failure: (error: ApiError, event?: ApiEvent) =>
    JSON.stringify(restErrorBody(error, hackmdMembers(error, event?.resource))),
};
