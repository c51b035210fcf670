// Integers as the API has always checked them (zod's int()): a fraction or a non-finite number
// (`1e999` parses to Infinity) is named once and ends the checks; beyond ±(2^53 - 1) is named, then
// the bounds. A query's integer is a string on the wire, documented as the integer it must be.
import * as v from 'valibot';
import { coercedNumber, typeName } from './schema.ts';

const SAFE = Number.MAX_SAFE_INTEGER;

/** valibot's integer check, but stopping the pipe when it fails (no bound is reported after it). */
function wholeOnly(): v.IntegerAction<number, v.ErrorMessage<v.IntegerIssue<number>>> {
  const action = v.integer((issue: v.IntegerIssue<number>) =>
    Number.isFinite(issue.input)
      ? 'Invalid input: expected int, received number'
      : `Invalid input: expected number, received ${typeName(issue.input)}`,
  );
  const run = action['~run'];
  return {
    ...action,
    '~run'(dataset, config) {
      const before = dataset.issues?.length ?? 0;
      const out = run.call(action, dataset, config);
      if ((out.issues?.length ?? 0) > before) out.typed = false;
      return out;
    },
  };
}

const safeInteger = () =>
  [
    wholeOnly(),
    v.check((n: number) => n <= SAFE, `Too big: expected int to be <=${SAFE}`),
    v.check((n: number) => n >= -SAFE, `Too small: expected int to be >=${-SAFE}`),
  ] as const;

/**
 * An integer of a JSON body. Nest it (`v.pipe(int(), v.minValue(0))`): an object then names a
 * missing one "expected number", as it always did (lib/domain/schema.ts).
 */
export const int = () => v.pipe(v.number(), ...safeInteger());

/**
 * An integer query parameter from `min` (to `max`), read as Number(input) reads it (zod's
 * z.coerce.number()). The converter stops at the transform, so the metadata documents it.
 */
export function queryInt(min: number, max?: number) {
  const doc =
    max === undefined ? { type: 'integer', minimum: min } : { type: 'integer', minimum: min, maximum: max };
  const bounded = v.pipe(v.unknown(), v.metadata(doc), coercedNumber(), ...safeInteger(), v.minValue(min));
  return max === undefined ? bounded : v.pipe(bounded, v.maxValue(max));
}
