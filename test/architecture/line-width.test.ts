// No tracked line of code runs past 160 characters. The formatter (biome.jsonc) writes lines of at
// most 110, but it does not break what it cannot: a long string, template literal or comment. Those
// must stay readable too (in a diff, a review, a terminal), so they are split or rewrapped by hand;
// 160 leaves room for a literal that would lose its sense if cut (a URL, a CSS rule) without letting
// a paragraph hide on one line. The files Biome does not check (generated, fixtures) are not checked.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const MAX = 160;
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** The paths biome.jsonc leaves out (`"!openapi"` and the like in files.includes). */
function biomeExcluded(): string[] {
  const config = readFileSync(join(ROOT, 'biome.jsonc'), 'utf8');
  const includes = config.match(/"includes"\s*:\s*\[([^\]]*)\]/)![1];
  return [...includes.matchAll(/"!([^"]+)"/g)].map((m) => m[1]);
}

/** `file:line: length` of every line of a tracked code file longer than MAX characters. */
function longLines(): string[] {
  const excluded = biomeExcluded();
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => CODE.test(f) && !excluded.some((x) => f === x || f.startsWith(`${x}/`)));
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const length = [...line].length;
        return length > MAX ? [`${file}:${i + 1}: ${length}`] : [];
      }),
  );
}

it('leaves out what biome.jsonc leaves out, the generated OpenAPI documents and the fixtures', () => {
  expect(biomeExcluded()).toEqual(expect.arrayContaining(['openapi', 'test/fixtures']));
});

it(`has no line of tracked code longer than ${MAX} characters`, () => {
  expect(longLines()).toEqual([]);
});
