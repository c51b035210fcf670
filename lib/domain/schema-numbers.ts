// Numbers as the API has always checked them (zod's): NaN and ±Infinity are not numbers, an integer
// is a safe integer, and a query's number is a string on the wire documented as the integer it must be.
// (lib/domain/schema.ts's coercedNumber takes Infinity: valibot's number() does.)
import * as v from 'valibot';
import { english } from './schema.ts';

type Issue = v.BaseIssue<unknown>;

/** A finite number: NaN and ±Infinity fail as "Invalid input: expected number, received Infinity". */
export function finiteNumber(): v.NumberSchema<undefined> {
  const schema = v.number();
  return {
    ...schema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<Issue>) {
      const out = schema['~run'](dataset, config);
      if (!out.typed || Number.isFinite(out.value)) return out;
      const issue = {
        kind: 'schema',
        type: 'number',
        input: out.value,
        expected: 'number',
        received: String(out.value),
      } as const;
      return {
        typed: false,
        value: out.value,
        issues: [...(out.issues ?? []), { ...issue, message: english(issue as unknown as Issue) }],
      };
    },
  } as v.NumberSchema<undefined>;
}

/** zod's int(): an integer from -(2^53 - 1) to 2^53 - 1 (the bounds are not documented). */
const safeInteger = [
  v.integer(),
  v.check(
    (n: number) => n >= Number.MIN_SAFE_INTEGER,
    `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`,
  ),
  v.check(
    (n: number) => n <= Number.MAX_SAFE_INTEGER,
    `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`,
  ),
] as const;

/**
 * An integer of a JSON body. Nest it (`v.pipe(int(), v.minValue(0))`): a missing key then says
 * "expected number", as it always did.
 */
export const int = () => v.pipe(finiteNumber(), ...safeInteger);

/**
 * An integer query parameter from `min` (to `max`): Number(input), as zod's z.coerce.number() read it.
 * The converter stops at the transform, so the metadata documents the integer it must be.
 */
export function queryInt(min: number, max?: number) {
  const doc =
    max === undefined ? { type: 'integer', minimum: min } : { type: 'integer', minimum: min, maximum: max };
  const bounded = v.pipe(
    v.unknown(),
    v.metadata(doc),
    v.transform(Number),
    finiteNumber(),
    ...safeInteger,
    v.minValue(min),
  );
  return max === undefined ? bounded : v.pipe(bounded, v.maxValue(max));
}
