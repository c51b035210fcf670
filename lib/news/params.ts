// Path and query parameters of the News routes. Invalid values are 400 badRequest; unknown query
// parameters are ignored (front ends add cache busters).
import { z } from 'zod';

export const LIMITS = { maxPage: 1_000_000, maxPerPage: 100, maxCount: 100, defaultPerPage: 5, defaultCount: 5 } as const;

/** A positive integer in canonical decimal form (no sign, no leading zeros), at most `max`. */
const positive = (max: number) => z.string()
  .regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().max(max, `must be at most ${max}`));

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const idPath = z.object({ id: positive(Number.MAX_SAFE_INTEGER) });
export const pageQuery = z.object({ page: positive(LIMITS.maxPage).default(1) });
export const newsQuery = z.object({
  page: positive(LIMITS.maxPage).default(1),
  perPage: positive(LIMITS.maxPerPage).default(LIMITS.defaultPerPage),
});
export const latestQuery = z.object({ count: positive(LIMITS.maxCount).default(LIMITS.defaultCount) });
export const articleQuery = z.object({ excerpt: bool.default(false) });
