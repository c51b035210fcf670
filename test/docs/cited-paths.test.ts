// No tracked file cites a path of this repository that it does not have (a doc lost in a merge, a
// file renamed, a folder outside the repo such as spec/). Prose is checked: Markdown, YAML, JSON,
// HTML and the comments of code (string literals in tests name fixtures on purpose).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const TOP = ['docs', 'lib', 'functions', 'infra', 'test', 'openapi', 'examples', 'spec'];
const CITED = new RegExp(`(?<![\\w./#@$-])((?:${TOP.join('|')})/[\\w./-]*\\w)(?![{*<$])`, 'g');
const CODE = /\.(ts|js|cjs|mjs)$/;

/** The prose of a file: all of it, or for code the comments only. */
function prose(file: string, text: string): string {
  if (!CODE.test(file)) return text;
  return text
    .split('\n')
    .map((line) => {
      const t = line.trim();
      if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) return t;
      const at = line.indexOf(' // ');
      return at === -1 ? '' : line.slice(at);
    })
    .join('\n');
}

/** One entry per path `file` (its `text`) cites that the repo does not have. */
function missingCitations(file: string, text: string): string[] {
  return [...prose(file, text).matchAll(CITED)]
    .map((m) => m[1].replace(/\.$/, ''))
    .filter((cited) => !existsSync(join(ROOT, cited)))
    .map((cited) => `${file} cites ${cited}`);
}

it('every repo path cited in a tracked file exists', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('test/fixtures/vendor/') && f !== 'package-lock.json')
    .filter((f) => /\.(md|ya?ml|json|jsonc|html|ts|js|cjs|mjs)$/.test(f) && existsSync(join(ROOT, f)));
  expect(files.length).toBeGreaterThan(100);
  expect(files.flatMap((f) => missingCitations(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
});

it('sees a citation in prose and in a comment, not in a string literal nor a placeholder', () => {
  const md = 'Permissions: see spec' + '/notes.md and docs/notes.md; docs/{api}.md, lib/<api>/wiring.ts.';
  expect(missingCitations('x.md', md)).toEqual(['x.md cites spec/notes.md']);
  const ts = [
    '// Permissions (spec' + '/notes.md)',
    "const entry = 'functions/nowhere.ts'; // lib/" + 'nowhere.ts',
  ];
  expect(missingCitations('x.ts', ts.join('\n'))).toEqual([
    'x.ts cites spec/notes.md',
    'x.ts cites lib/nowhere.ts',
  ]);
});
