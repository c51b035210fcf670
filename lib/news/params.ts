// Path and query parameters of the News routes. Invalid values are 400 badRequest; unknown query
// parameters are ignored (front ends add cache busters).
import * as v from 'valibot';
import { object } from '../domain/schema.ts';

export const LIMITS = {
  maxPage: 1_000_000,
  maxPerPage: 100,
  maxCount: 100,
  defaultPerPage: 5,
  defaultCount: 5,
} as const;

/** A positive integer in canonical decimal form (no sign, no leading zeros), at most `max`. */
const positive = (max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer'),
    v.transform(Number),
    v.number(),
    v.maxValue(max, `must be at most ${max}`),
  );

// In the order the 400 message and the OpenAPI enum have always listed them.
const BOOLEANS = ['0', '1', 'true', 'false'] as const;
const bool = v.pipe(
  v.picklist(BOOLEANS),
  v.transform((b) => b === 'true' || b === '1'),
);

export const idPath = object({ id: positive(Number.MAX_SAFE_INTEGER) });
// A default is what a client would send (it is parsed like one); the OpenAPI documents show it.
export const pageQuery = object({ page: v.optional(positive(LIMITS.maxPage), '1') });
export const newsQuery = object({
  page: v.optional(positive(LIMITS.maxPage), '1'),
  perPage: v.optional(positive(LIMITS.maxPerPage), String(LIMITS.defaultPerPage)),
});
export const latestQuery = object({
  count: v.optional(positive(LIMITS.maxCount), String(LIMITS.defaultCount)),
});
export const articleQuery = object({ excerpt: v.optional(bool, 'false') });
