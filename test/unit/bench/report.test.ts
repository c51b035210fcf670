// `npm run bench -- --write-docs` rewrites only what stands between a page's markers
// (infra/bench/report.ts): the text around them is the authors', and a page without the markers is
// an error, not a page silently left stale.
import { describe, expect, it } from 'vitest';
import type { LiveFigures } from '../../../infra/bench/live.ts';
import { block, docsLive, readmeLive, replaceBlock } from '../../../infra/bench/report.ts';

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

describe('the live figures carry the revocation delay at 50 active notes', () => {
  const usage = { dynamo: 1, gateway: 2, lambda: 3, logs: 4, total: 10 };
  const live: LiveFigures = {
    edit: { writeUnits: 1, readUnits: 1, messages: 3, invocations: 2, gbMs: 50, logBytes: 900 },
    editPerMillion: usage,
    hourPerMillion: usage,
    renewingHourPerMillion: usage,
    latency: { p50: 16.7, p99: 51, samples: 300, floorP50: 7.6, floorP99: 72.8 },
    revocation: {
      notes: 50,
      samples: 3,
      floorP50: 1200,
      floorMax: 1300,
      p50: 1800,
      max: 2100,
      me: { floorP50: 8, floorP99: 40, p50: 20, p99: 300 },
    },
  };

  it('in the README block and docs/benchmarks.md, the README block no longer than before', () => {
    const readme = readmeLive(live, 'test');
    expect(readme).toContain('in 1800 ms (p50 of 3; at most 2100 ms; target ≤ 5 s) while 50 other notes');
    expect(readme).toContain('1.50× its 1200 ms with no note active');
    // Intro with the sentences, a blank line, the table's header, rule and three rows.
    expect(readme.split('\n')).toHaveLength(7);
    expect(docsLive(live, 'test')).toContain('`GET /v1/me` of another user meanwhile 20 / 300 ms');
  });
});
