// Two Chromium tabs type into one note at the same time through the example editor page
// (examples/live/editor.html, served by the runner at /_live/editor): each sees the other's typing,
// both end with the same text, holding everything either typed, and the REST API gives that text; a
// reader's tab (access `read`) is read-only and follows the writer's typing.
// Debian's /usr/bin/chromium driven by playwright-core; skipped without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { http } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createNote, local } from './helpers.ts';

if (chromiumMissing) console.log(`live editor browser test skipped: ${chromiumMissing}`);

/** Functions Playwright runs in the page reach its document untyped (the tests' types have no DOM). */
type InPage = {
  document: { querySelector(s: string): { value: string; selectionStart: number; textContent: string } };
};

describe.skipIf(chromiumMissing !== undefined || !local)('two browser tabs editing one note', () => {
  let browser: import('playwright-core').Browser;
  let me: TestUser;
  beforeAll(async () => {
    browser = await launchChromium();
    me = await newUser('Tab Typist');
  });
  afterAll(() => browser?.close());

  it('both tabs see each other type and converge; GET /v1/notes/:id has the same text', async () => {
    const note = await createNote(me.token, { content: 'Shared line\n' });
    const context = await browser.newContext();
    const problems: string[] = [];
    const open = async (name: string) => {
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && problems.push(`${name}: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`${name}: ${e.message}`));
      await page.goto(`${process.env.TEST_BASE_URL}/_live/editor?note=${encodeURIComponent(note.id)}`);
      await page.fill('#token', me.token);
      await page.fill('#name', name);
      await page.click('button[type=submit]');
      await page.waitForSelector('#content[data-synced="true"]', { timeout: 60_000 });
      expect(await page.inputValue('#content')).toBe('Shared line\n');
      return page;
    };
    const a = await open('Ada');
    const b = await open('Bob');
    // Each sees the other one present (awareness).
    await a.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector('#people').textContent.includes('Bob'),
    );

    const converged = (text: string) =>
      Promise.all(
        [a, b].map((page) =>
          page.waitForFunction(
            (t) => (globalThis as unknown as InPage).document.querySelector('#content').value === t,
            text,
            { timeout: 20_000 },
          ),
        ),
      );
    // Both type at once: Ada at the start, Bob at the end.
    await a.click('#content');
    await a.keyboard.press('Control+Home');
    await b.click('#content');
    await b.keyboard.press('Control+End');
    await Promise.all([
      a.keyboard.type('Ada was here. ', { delay: 25 }),
      b.keyboard.type('Bob too. ', { delay: 25 }),
    ]);
    await converged('Ada was here. Shared line\nBob too. ');
    // Bob's caret stays in his word while Ada types before it (the caret moves with the text).
    for (let i = 0; i < 3; i += 1) await b.keyboard.press('ArrowLeft');
    await a.keyboard.type('Hi! ', { delay: 25 });
    const expected = 'Ada was here. Hi! Shared line\nBob too. ';
    await converged(expected);
    expect(
      await b.evaluate(
        () => (globalThis as unknown as InPage).document.querySelector('#content').selectionStart,
      ),
    ).toBe(expected.length - 3);

    let content = '';
    const deadline = Date.now() + 15_000;
    while (content !== expected && Date.now() < deadline) {
      content = (await http('GET', `/v1/notes/${note.id}`, { token: me.token })).body?.content;
      if (content !== expected) await new Promise((r) => setTimeout(r, 200));
    }
    expect(content).toBe(expected);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a reader's tab follows the writer's typing read-only", async () => {
    const reader = await newUser('Tab Reader');
    const note = await createNote(me.token, { content: 'Read me\n', readPermission: 'signed_in' });
    const context = await browser.newContext();
    const open = async (token: string, name: string) => {
      const page = await context.newPage();
      await page.goto(`${process.env.TEST_BASE_URL}/_live/editor?note=${encodeURIComponent(note.id)}`);
      await page.fill('#token', token);
      await page.fill('#name', name);
      await page.click('button[type=submit]');
      await page.waitForSelector('#content[data-synced="true"]', { timeout: 60_000 });
      return page;
    };
    const writer = await open(me.token, 'Writer');
    const read = await open(reader.token, 'Reader');
    expect(await read.locator('#status').innerText()).toContain('read only');
    expect(
      await read.locator('#content').evaluate((e) => (e as unknown as { readOnly: boolean }).readOnly),
    ).toBe(true);
    await read.click('#content');
    await read.keyboard.type('not allowed');
    await writer.click('#content');
    await writer.keyboard.press('Control+End');
    await writer.keyboard.type('More.', { delay: 20 });
    await read.waitForFunction(
      (t) => (globalThis as unknown as InPage).document.querySelector('#content').value === t,
      'Read me\nMore.',
      { timeout: 20_000 },
    );
    await context.close();
  });
});
