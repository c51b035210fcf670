// docs/ is a user's manual: every page says first what it is for, and every operation of the three
// OpenAPI documents has a worked example (its request and its answer) under a heading that names
// its method and path, on its API's page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const PAGES = {
  notes: ['docs/notes.md', 'docs/webhooks.md'],
  news: ['docs/news.md'],
  bank: ['docs/bank.md'],
};
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

it('every docs page starts with what it is for', () => {
  const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  expect(pages.length).toBeGreaterThan(5);
  const opening = (page: string) => read(`docs/${page}`).split('\n\n')[1] ?? '';
  expect(pages.filter((page) => !opening(page).startsWith('This page is for '))).toEqual([]);
});

it("every operation has a worked example on its API's page", () => {
  const missing = Object.entries(PAGES).flatMap(([api, pages]) => {
    const text = pages.map(read).join('\n');
    const headings = text.split('\n').filter((line) => line.startsWith('#### '));
    const doc = JSON.parse(read(`openapi/${api}.json`)) as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => m in item)
        .map((m) => `\`${m.toUpperCase()} ${path}\``)
        .filter((route) => !headings.some((h) => h.includes(route)))
        .map((route) => `${api}: ${route}`),
    );
  });
  expect(missing).toEqual([]);
});
