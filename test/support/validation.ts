// What parseWith refuses a value with: the status and the field errors a client would get.
import type { ApiError } from '../../lib/http/errors.ts';
import { type Part, parseWith, type Schema } from '../../lib/http/validation.ts';

export function refusal(schema: Schema, value: unknown, part: Part = 'body') {
  try {
    parseWith(schema, value, part);
  } catch (e) {
    const err = e as ApiError;
    return { status: err.status, fields: err.fields };
  }
  throw new Error('parsed');
}
