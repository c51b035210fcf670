// `npm run bench -- --write-docs` rewrites only what stands between a page's markers
// (infra/bench/report.ts): the text around them is the authors', and a page without the markers is
// an error, not a page silently left stale.
import { describe, expect, it } from 'vitest';
import { block, replaceBlock } from '../../../infra/bench/report.ts';

const page = [
  '# Page',
  'before',
  '<!-- bench:cost -->',
  'old table',
  '<!-- /bench:cost -->',
  'after',
  '',
].join('\n');

describe('the bench writes its figures between markers', () => {
  it('replaces the block and nothing around it', () => {
    const next = replaceBlock(page, 'cost', '| new | table |');
    expect(block(next, 'cost')).toBe('| new | table |');
    expect(next.startsWith('# Page\nbefore\n<!-- bench:cost -->\n')).toBe(true);
    expect(next.endsWith('<!-- /bench:cost -->\nafter\n')).toBe(true);
    // Written twice, the page is the same: no marker or blank line piles up.
    expect(replaceBlock(next, 'cost', '| new | table |')).toBe(next);
  });

  it('refuses a page without the block', () => {
    expect(() => replaceBlock(page, 'cold', 'x')).toThrow('no <!-- bench:cold -->');
    expect(block(page, 'cold')).toBeUndefined();
  });
});
