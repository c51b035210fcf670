// A JSON integer as the Bank has always checked it (zod's `z.number().check(z.int(), ...)`), in
// valibot: a fraction or a non-finite number (`1e999` parses to Infinity) is named once and ends
// the checks (no bound is reported after it); beyond ±(2^53 - 1) is named, then the bounds; a
// missing one "expected number". The documents say `type: integer` with the bounds.
import * as v from 'valibot';
import { typeName } from '../domain/schema.ts';

const SAFE = Number.MAX_SAFE_INTEGER;

/** valibot's integer check, which stops the pipe when it fails (the bounds after it do not run). */
const wholeOnly = (): v.IntegerAction<number, v.ErrorMessage<v.IntegerIssue<number>>> => {
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
};

/** An integer from min to max (a JSON number). */
export const integerBetween = (min: number, max: number) =>
  v.pipe(
    // Nested, so an object names a missing one as "expected number" (lib/domain/schema.ts).
    v.pipe(v.number(), wholeOnly()),
    v.check((n: number) => n <= SAFE, `Too big: expected int to be <=${SAFE}`),
    v.check((n: number) => n >= -SAFE, `Too small: expected int to be >=${-SAFE}`),
    v.minValue(min),
    v.maxValue(max),
  );
