// zod/mini schemas (docs/validation.md) validate path, query and body; failures become ApiErrors
// that name every field, in zod's English messages.
import type * as z from 'zod/mini';
import '../domain/zod-locale.ts';
import { ApiError, type FieldError } from './errors.ts';

export type Part = 'path' | 'query' | 'body' | 'header';

export function issuesToFields(issues: z.core.$ZodIssue[], part: Part): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        fields.push({ field: base ? `${base}.${key}` : key, message: 'Unknown field' });
    } else {
      fields.push({ field: base || part, message: issue.message });
    }
  }
  return fields;
}

/** Parses `value` with `schema`; body failures are 422, path/query/header failures 400. */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, part: Part): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = issuesToFields(result.error.issues, part);
  if (part === 'body')
    throw new ApiError('validation_failed', 'One or more fields of the request body are invalid', { fields });
  throw new ApiError(
    'bad_request',
    `Invalid ${part} parameter${fields.length > 1 ? 's' : ''}: ${fields.map((f) => f.field).join(', ')}`,
    { fields },
  );
}
