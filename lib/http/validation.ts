// valibot schemas (docs/validation.md) validate path, query and body; failures become ApiErrors
// that name every field, in the API's English messages (lib/domain/schema.ts).
import type * as v from 'valibot';
import { safeParse } from '../domain/schema.ts';
import { ApiError, type FieldError } from './errors.ts';

export type Part = 'path' | 'query' | 'body' | 'header';
export type Schema = v.GenericSchema;

/** Each issue's field: its dotted path (`tags.1`, `metadata.k`), or the part itself at the top. */
export const issuesToFields = (issues: readonly v.BaseIssue<unknown>[], part: Part): FieldError[] =>
  issues.map((issue) => ({
    field: issue.path?.map((p) => String(p.key)).join('.') || part,
    message: issue.message,
  }));

/** Parses `value` with `schema`; body failures are 422, path/query/header failures 400. */
export function parseWith<S extends Schema>(schema: S, value: unknown, part: Part): v.InferOutput<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.output;
  const fields = issuesToFields(result.issues, part);
  if (part === 'body')
    throw new ApiError('validation_failed', 'One or more fields of the request body are invalid', { fields });
  throw new ApiError(
    'bad_request',
    `Invalid ${part} parameter${fields.length > 1 ? 's' : ''}: ${fields.map((f) => f.field).join(', ')}`,
    { fields },
  );
}
