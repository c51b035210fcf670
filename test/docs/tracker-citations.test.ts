// The repository speaks of itself: no tracked file cites the issue tracker (an issue's number in
// words or as a hash reference, a heading anchor made of one, an issue named as the source of a figure) or
// names an interface document by its number on the tracker. A reader of the repository cannot follow
// such a citation, so a decision is stated with its reason and an interface document by what it is
// ("the Notes interface document"). The second test shows each form the first one finds.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const CITATIONS = [
  /\bissues? ?#?\d+/gi,
  /\bissue-\d+/gi,
  /\b(?:the|its|this|that) issue\b(?!s| tracker)/gi,
  /\bseed[ -]?0\d\d\b/gi,
  /(?<![\w&#/])#\d{1,4}\b(?![\w-])/g,
];
const SKIPPED = (file: string) =>
  file === 'package-lock.json' || file.startsWith('test/fixtures/vendor/') || !existsSync(join(ROOT, file));

/** One entry per citation of the tracker in `text`, with its line number. */
function citations(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      CITATIONS.flatMap((pattern) => [...line.matchAll(pattern)].map((m) => `${file}:${i + 1}: ${m[0]}`)),
    );
}

it('no tracked file cites the issue tracker or a tracker name of an interface document', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !SKIPPED(f));
  expect(files.length).toBeGreaterThan(100);
  const found = files.flatMap((f) => {
    const text = readFileSync(join(ROOT, f), 'utf8');
    return text.includes('\0') ? [] : citations(f, text);
  });
  expect(found).toEqual([]);
});

it('sees each form of citation, and not what merely looks like one', () => {
  const cited = [
    `Budgets from ${'iss'}ue 3.`,
    `Targets of ${'Iss'}ue 19's work (${'iss'}ues 12 and 19).`,
    `See [deploy](docs/deploy.md#built-${'iss'}ue-19).`,
    `Within the budget of its ${'iss'}ue.`,
    `The REST dialect of ${'se'}ed 002.`,
    `Fixed in ${'#'}42.`,
  ].join('\n');
  expect(citations('x.md', cited).map((c) => c.replace(/^x\.md:\d+: /, ''))).toEqual([
    `${'iss'}ue 3`,
    `${'Iss'}ue 19`,
    `${'iss'}ues 12`,
    `${'iss'}ue-19`,
    `its ${'iss'}ue`,
    `${'se'}ed 002`,
    `${'#'}42`,
  ]);
  const innocent = [
    'Valibot issues name the field; the seed of a TOTP; color: #ff0000; `#lib/*` imports.',
    'tissue 12 and reissued 3 times; a fuzz seed 12345; page=2#3',
  ].join('\n');
  expect(citations('x.md', innocent)).toEqual([]);
});
