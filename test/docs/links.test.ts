// Every relative link of README.md and docs/*.md leads somewhere: the file (or folder) exists, and
// an anchor (`#heading`, on the same page or another Markdown page) names one of that page's
// headings as GitHub slugs them. Links are read as a Markdown renderer reads them (markdown-it), so
// a link inside a code block or a code span is not one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const md = new MarkdownIt({ html: true });

/**
 * GitHub's heading ids: the heading's text lower-cased, every character that is not a letter, a
 * mark, a digit, a connector (`_`), a space or `-` dropped, spaces made `-`; a repeated id gets
 * `-1`, `-2`, … in order.
 */
function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  const tokens = md.parse(markdown, {});
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const text = (tokens[i + 1].children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content)
      .join('');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n ? `${base}-${n}` : base);
  });
  // Explicit anchors (<a id="..."> / <a name="...">) are link targets too.
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) slugs.add(m[1]);
  return slugs;
}

/** Every link target of a Markdown text (hrefs of its links and images), as written. */
function linksOf(markdown: string): string[] {
  const out: string[] = [];
  const walk = (tokens: ReturnType<typeof md.parse>) => {
    for (const t of tokens) {
      if (t.type === 'link_open') out.push(String(t.attrGet('href') ?? ''));
      if (t.type === 'image') out.push(String(t.attrGet('src') ?? ''));
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(markdown, {}));
  return out;
}

/** One line per broken relative link of `file` (a path from the repository's root). */
function brokenLinks(file: string, read: (path: string) => string | undefined): string[] {
  const text = read(file) ?? '';
  return linksOf(text)
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//'))
    .flatMap((href) => {
      const [path, anchor] = href.split('#', 2) as [string, string | undefined];
      const target = path ? relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path))) : file;
      const page = read(target);
      if (page === undefined && !existsSync(join(ROOT, target))) return [`${file}: ${href} (no ${target})`];
      if (anchor === undefined || !target.endsWith('.md')) return [];
      return headingSlugs(page ?? '').has(decodeURIComponent(anchor))
        ? []
        : [`${file}: ${href} (no heading #${anchor} in ${target})`];
    });
}

const readRepo = (path: string): string | undefined => {
  const full = join(ROOT, path);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
};

it('every relative link and anchor of README.md and docs/*.md leads to a file and a heading', () => {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  expect(pages.length).toBeGreaterThan(5);
  const links = pages.flatMap((p) => linksOf(readRepo(p)!));
  expect(links.filter((l) => l.includes('#')).length).toBeGreaterThan(10);
  expect(pages.flatMap((p) => brokenLinks(p, readRepo))).toEqual([]);
});

it("slugs headings as GitHub does, and sees a broken link, a missing heading, not a code span's", () => {
  const pages: Record<string, string> = {
    'docs/a.md': [
      '# Notes API (HackMD API v1 compatible)',
      '## HackMD’s manners: `If-Match` & ETags',
      '## Trash',
      '## Trash',
      'See [pages](#note-pages), [manners](#hackmds-manners-if-match--etags), [again](#trash-1),',
      '[b](b.md#bank-api), [gone](nowhere.md), [title](b.md#notes-api) and `[code](#not-a-link)`.',
      '```',
      '[fenced](#not-a-link-either)',
      '```',
    ].join('\n'),
    'docs/b.md': '# Bank API\n',
  };
  expect([...headingSlugs(pages['docs/a.md'])]).toEqual([
    'notes-api-hackmd-api-v1-compatible',
    'hackmds-manners-if-match--etags',
    'trash',
    'trash-1',
  ]);
  expect(brokenLinks('docs/a.md', (p) => pages[p])).toEqual([
    'docs/a.md: #note-pages (no heading #note-pages in docs/a.md)',
    'docs/a.md: nowhere.md (no docs/nowhere.md)',
    'docs/a.md: b.md#notes-api (no heading #notes-api in docs/b.md)',
  ]);
});
