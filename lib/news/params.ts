// Path and query parameters of the News routes. Invalid values are 400 badRequest; unknown query
// parameters are ignored (front ends add cache busters).
import * as z from 'zod/mini';

export const LIMITS = {
  maxPage: 1_000_000,
  maxPerPage: 100,
  maxCount: 100,
  defaultPerPage: 5,
  defaultCount: 5,
} as const;

/** A positive integer in canonical decimal form (no sign, no leading zeros), at most `max`. */
const positive = (max: number) =>
  z.pipe(
    z.pipe(
      z.string().check(z.regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer')),
      z.transform(Number),
    ),
    z.number().check(z.lte(max, `must be at most ${max}`)),
  );

const BOOLEANS = ['true', 'false', '1', '0'] as const;
const bool = z.pipe(
  z.enum(BOOLEANS),
  z.transform((v: (typeof BOOLEANS)[number]) => v === 'true' || v === '1'),
);

export const idPath = z.object({ id: positive(Number.MAX_SAFE_INTEGER) });
export const pageQuery = z.object({ page: z._default(positive(LIMITS.maxPage), 1) });
export const newsQuery = z.object({
  page: z._default(positive(LIMITS.maxPage), 1),
  perPage: z._default(positive(LIMITS.maxPerPage), LIMITS.defaultPerPage),
});
export const latestQuery = z.object({ count: z._default(positive(LIMITS.maxCount), LIMITS.defaultCount) });
export const articleQuery = z.object({ excerpt: z._default(bool, false) });
