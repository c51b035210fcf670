// Note pages in Chromium (Debian's /usr/bin/chromium, driven by playwright-core): readable on a phone
// (390 px) and a desktop (1280 px) without horizontal scrolling (screenshots in test-results/), and
// harmless with hostile markdown: the vectors of test/fixtures/pages/xss-vectors.txt (from the OWASP
// XSS Filter Evasion Cheat Sheet), put in a few notes, run no script (no dialog, no CSP violation, no
// request to another origin) and the text around them is still shown. Skipped without Chromium.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createNote } from './helpers.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
if (chromiumMissing) console.log(`note page browser test skipped: ${chromiumMissing}`);

const VECTORS = readFileSync(join(ROOT, 'test', 'fixtures', 'pages', 'xss-vectors.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('# '));
/** Vectors per note: a few notes, one page load each. */
const BATCH = 40;

const WIDE = [
  '# A note that must fit a phone',
  '###### tags: `layout`',
  `A very long word: ${'Donaudampfschifffahrtsgesellschaftskapitän'.repeat(3)} and a long link https://example.org/${'segment/'.repeat(20)}`,
  '',
  '```js',
  `const line = "${'a long line of code '.repeat(12)}";`,
  '```',
  '',
  `| ${Array.from({ length: 12 }, (_, i) => `column ${i}`).join(' | ')} |`,
  `|${' --- |'.repeat(12)}`,
  `| ${Array.from({ length: 12 }, (_, i) => `value ${i}`).join(' | ')} |`,
  '',
  'The last paragraph.',
].join('\n');

/** A note with every kind of markdown a page renders, a wide table of long cells among them. */
const RICH = [
  '# A rich note',
  '###### tags: `release` `docs`',
  '[TOC]',
  '## Checklist',
  '- [x] shipped',
  '- [ ] announced',
  '',
  '## Table',
  `| ${Array.from({ length: 8 }, (_, i) => `heading of column ${i}`).join(' | ')} |`,
  `|${' :--- |'.repeat(8)}`,
  ...Array.from(
    { length: 3 },
    (_, r) => `| ${Array.from({ length: 8 }, (_, i) => `a cell of several words ${r}.${i}`).join(' | ')} |`,
  ),
  '',
  '## Code',
  '```js',
  'const answer = 42; // the answer',
  '```',
  '',
  '> A quote with **bold**, *emphasis*, `code` and a link: https://example.org/.',
  '',
  'A claim.[^1] Another.[^2]',
  '',
  '[^1]: The first source.',
  '[^2]: The second source.',
].join('\n');

describe.skipIf(chromiumMissing !== undefined || !local)('note pages in Chromium', () => {
  let browser: import('playwright-core').Browser;
  let me: TestUser;
  beforeAll(async () => {
    browser = await launchChromium();
    me = await newUser('Browser Reader');
  });
  afterAll(() => browser?.close());

  it('fits a phone and a desktop without horizontal scrolling', async () => {
    const note = await createNote(me.token, { content: WIDE, readPermission: 'guest' });
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 844 } });
      await page.goto(note.publishLink);
      // The stylesheet applied: the column is narrower than a desktop.
      const column = await page.locator('.page').evaluate((e) => e.getBoundingClientRect().width);
      expect(column).toBeLessThanOrEqual(Math.min(width, 46 * 16 + 1));
      const overflow = (await page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      )) as { scroll: number; client: number };
      expect(overflow.scroll, `${width}px`).toBeLessThanOrEqual(overflow.client);
      await expect(page.locator('h1').first().innerText()).resolves.toBe('A note that must fit a phone');
      expect(await page.locator('main').innerText()).toContain('The last paragraph.');
      await page.screenshot({ path: join(ROOT, 'test-results', `note-page-${width}.png`), fullPage: true });
      await page.close();
    }
  });

  it('a rich note at 390 and 1280 px: no console error, tags as chips, one rule, the table scrolls in its box', async () => {
    const note = await createNote(me.token, { content: RICH, readPermission: 'guest' });
    const origin = new URL(note.publishLink).origin;
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 844 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
      });
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      await page.goto(note.publishLink, { waitUntil: 'load' });
      // The browser asks for an icon after the load: give it the time to, and to complain.
      await page.waitForTimeout(500);
      expect(problems, `${width}px`).toEqual([]);
      expect(foreign).toEqual([]);
      const overflow = (await page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      )) as { scroll: number; client: number };
      expect(overflow.scroll, `${width}px`).toBeLessThanOrEqual(overflow.client);
      // The tags line is chips, not a heading; one rule above the footnotes.
      expect(await page.locator('h6').count()).toBe(0);
      expect(await page.locator('main ul.tags li').allInnerTexts()).toEqual(['release', 'docs']);
      expect(await page.locator('main hr').count()).toBe(0);
      const rule = await page.evaluate(
        "getComputedStyle(document.querySelector('section.footnotes')).borderTopStyle",
      );
      expect(rule).toBe('solid');
      // The wide table scrolls inside its own box (at 390 px), its rows one line high.
      const table = (await page.evaluate(`(() => {
        const t = document.querySelector('main table');
        return {
          scroll: t.scrollWidth,
          client: t.clientWidth,
          row: t.querySelector('tbody tr').getBoundingClientRect().height,
          line: parseFloat(getComputedStyle(t.querySelector('td')).lineHeight),
        };
      })()`)) as { scroll: number; client: number; row: number; line: number };
      if (width === 390) expect(table.scroll).toBeGreaterThan(table.client);
      expect(table.row).toBeLessThan(3 * table.line + 16);
      await page.screenshot({
        path: join(ROOT, 'test-results', `note-page-rich-${width}.png`),
        fullPage: true,
      });
      await page.close();
    }
  });

  it(`runs none of ${VECTORS.length} XSS vectors and keeps the text around them`, async () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(100);
    const batches: string[][] = [];
    for (let i = 0; i < VECTORS.length; i += BATCH) batches.push(VECTORS.slice(i, i + BATCH));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const dialogs: string[] = [];
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    // The page runs no script of its own: the listener is the test's, injected by the browser.
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => " +
        "console.error('Content-Security-Policy violation: ' + e.violatedDirective + ' ' + " +
        'e.blockedURI));',
    });
    for (const [b, batch] of batches.entries()) {
      const markers = batch.map((_, i) => `MARK${b}x${i}`);
      const content = [
        `# Hostile batch ${b}`,
        ...batch.flatMap((vector, i) => [`${markers[i]}a`, '', vector, '', `${markers[i]}z`, '']),
      ].join('\n');
      const note = await createNote(me.token, { content, readPermission: 'guest' });
      const origin = new URL(note.publishLink).origin;
      page.removeAllListeners('request');
      page.on('request', (r) => {
        if (!r.url().startsWith(origin)) foreign.push(r.url());
      });
      await page.goto(note.publishLink, { waitUntil: 'load' });
      // Give any deferred handler a moment to fire; move the pointer over and focus everything.
      await page.mouse.move(200, 200);
      await page.keyboard.press('Tab');
      await page.waitForTimeout(300);
      const text = await page.locator('main').innerText();
      const lost = markers.flatMap((m) => [`${m}a`, `${m}z`]).filter((m) => !text.includes(m));
      expect(lost, `batch ${b}: text lost around vectors`).toEqual([]);
      expect(await page.evaluate('document.scripts.length')).toBe(0);
    }
    await page.close();
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
