// Pure parts of the News domain: excerpts, privacy of dateOfBirth, the committed OpenAPI document.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveExcerpt, EXCERPT_MAX } from '../../lib/news/excerpt.ts';
import { dayAndMonthOnly } from '../../lib/news/present.ts';
import { buildNewsDocument } from '../../infra/openapi/news.ts';

describe('excerpt', () => {
  it('is the plain text of the first paragraph, headings and code skipped', () => {
    expect(deriveExcerpt('# Title\n\nHello *big* [world](http://x) and `code`.\n\nMore.')).toBe(
      'Hello big world and code.',
    );
    expect(deriveExcerpt('```\ncode\n```\n\n> quoted\n> text')).toBe('quoted text');
    expect(deriveExcerpt('')).toBe('');
  });
  it('is at most 300 characters, cut at a word boundary with an ellipsis', () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const e = deriveExcerpt(long);
    expect(e.length).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(e.endsWith('…')).toBe(true);
    expect(long.startsWith(e.slice(0, -1))).toBe(true);
    expect(long[e.length - 1]).toBe(' ');
    expect(deriveExcerpt('x'.repeat(400))).toBe(`${'x'.repeat(299)}…`);
  });
});

describe('dateOfBirth level 1', () => {
  it('keeps day and month, in 1970 at 00:00 UTC', () => {
    expect(dayAndMonthOnly(Date.UTC(1990, 11, 31, 23, 59) / 1000)).toBe(Date.UTC(1970, 11, 31) / 1000);
    expect(dayAndMonthOnly(Date.UTC(1960, 0, 1, 5) / 1000)).toBe(0);
  });
});

describe('openapi/news.json', () => {
  it('is what the builder produces', () => {
    expect(JSON.parse(readFileSync(new URL('../../openapi/news.json', import.meta.url), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(buildNewsDocument())),
    );
  });
});
