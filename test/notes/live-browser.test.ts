// Two people type into one note at the same time in Chromium through the example editor page
// (examples/live/editor.html, CodeMirror 6 with y-codemirror.next, served by the runner at
// /_live/editor): each sees the other's typing, and the other's cursor in their colour with their
// name (their token's user); the preview beside the text (below it at 390 px) is the note page's
// renderer and sanitiser; both end with the same text, which GET /v1/notes/:id gives; nobody sends
// an awareness frame while nobody moves (y-protocols' 15 s renewal and 30 s timeout are off); a
// reader's tab is read-only and follows the writer's typing.
// Debian's /usr/bin/chromium driven by playwright-core; skipped without it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { http } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createNote, local } from './helpers.ts';

if (chromiumMissing) console.log(`live editor browser test skipped: ${chromiumMissing}`);

/** Functions Playwright runs in the page reach its globals untyped (the tests' types have no DOM). */
type InPage = {
  liveEditor: { text(): string };
  getComputedStyle(e: unknown): { color: string; backgroundColor: string };
  document: {
    querySelector(s: string): { innerHTML: string; textContent: string } | null;
    querySelectorAll(s: string): ArrayLike<{ textContent: string }>;
  };
};

/** Opens the editor on a note with a token; counts the awareness frames the page sends. */
async function open(page: Page, noteId: string, token: string) {
  const sent = { awareness: 0 };
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const text = String(payload);
      if (!text.startsWith('{') && Buffer.from(text, 'base64')[0] === 1) sent.awareness += 1;
    }),
  );
  await page.goto(`${process.env.TEST_BASE_URL}/_live/editor?note=${encodeURIComponent(noteId)}`);
  await page.fill('#token', token);
  await page.click('button[type=submit]');
  await page.waitForSelector('#editor[data-synced="true"]', { timeout: 60_000 });
  return sent;
}

const textIs = (page: Page, text: string) =>
  page.waitForFunction((t) => (globalThis as unknown as InPage).liveEditor.text() === t, text, {
    timeout: 30_000,
  });

/** The names over the other people's carets in this page. */
const caretNames = (page: Page) =>
  page.evaluate(() =>
    Array.from(
      (globalThis as unknown as InPage).document.querySelectorAll('.cm-ySelectionInfo'),
      (e) => e.textContent,
    ),
  );

describe.skipIf(chromiumMissing !== undefined || !local)('two people editing one note in Chromium', () => {
  let browser: import('playwright-core').Browser;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    browser = await launchChromium();
    [ada, bob] = await Promise.all([newUser('Ada Lovelace'), newUser('Bob Babbage')]);
  });
  afterAll(() => browser?.close());

  it("each sees the other's text, named cursor and the preview; awareness stays quiet while nobody moves", async () => {
    const note = await createNote(ada.token, {
      content: 'Shared line\n',
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    });
    const problems: string[] = [];
    const pageOf = async (name: string, width: number) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && problems.push(`${name}: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`${name}: ${e.message}`));
      // The page's clock is Playwright's: 40 s pass in a moment below (time flows normally otherwise).
      await page.clock.install();
      return page;
    };
    const [a, b] = await Promise.all([pageOf('Ada', 1280), pageOf('Bob', 390)]);
    const sentA = await open(a, note.id, ada.token);
    const sentB = await open(b, note.id, bob.token);
    await textIs(a, 'Shared line\n');
    await textIs(b, 'Shared line\n');

    // The preview: beside the text at 1280 px, below it at 390 px.
    const boxes = (page: Page) =>
      Promise.all([page.locator('#editor').boundingBox(), page.locator('#preview').boundingBox()]);
    const [editorA, previewA] = await boxes(a);
    expect(previewA!.x).toBeGreaterThanOrEqual(editorA!.x + editorA!.width);
    expect(Math.abs(previewA!.y - editorA!.y)).toBeLessThan(2);
    const [editorB, previewB] = await boxes(b);
    expect(previewB!.y).toBeGreaterThanOrEqual(editorB!.y + editorB!.height);

    // Both type at once: Ada a heading at the start, Bob bold text and an image from elsewhere at the end.
    await a.click('.cm-content');
    await a.keyboard.press('Control+Home');
    await b.click('.cm-content');
    await b.keyboard.press('Control+End');
    await Promise.all([
      a.keyboard.type('# Ada was here\n', { delay: 20 }),
      b.keyboard.type('**Bob** too <img src="https://elsewhere.example/x.png" onerror="alert(1)">', {
        delay: 20,
      }),
    ]);
    const expected =
      '# Ada was here\nShared line\n**Bob** too <img src="https://elsewhere.example/x.png" onerror="alert(1)">';
    await textIs(a, expected);
    await textIs(b, expected);

    // Each sees the other's caret with their name (their token's user), in their colour.
    await a.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector('.cm-ySelectionInfo'),
    );
    await b.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector('.cm-ySelectionInfo'),
    );
    expect(await caretNames(a)).toEqual(['Bob Babbage']);
    expect(await caretNames(b)).toEqual(['Ada Lovelace']);
    const caretColour = await a
      .locator('.cm-ySelectionCaret')
      .evaluate((e) => (globalThis as unknown as InPage).getComputedStyle(e).backgroundColor);
    const bobColour = await a
      .locator('#people li', { hasText: 'Bob Babbage' })
      .evaluate((e) => (globalThis as unknown as InPage).getComputedStyle(e).color);
    expect(caretColour).toBe(bobColour);

    // The preview is the note page's rendering: heading ids, bold, and the sanitiser's rules (no
    // event handler; an image from another host becomes a link to it).
    for (const page of [a, b]) {
      await page.waitForFunction(() =>
        (globalThis as unknown as InPage).document
          .querySelector('#preview')!
          .innerHTML.includes('<strong>Bob</strong>'),
      );
      const html = await page.locator('#preview').innerHTML();
      expect(html).toContain('<h1 id="ada-was-here">Ada was here</h1>');
      expect(html).not.toContain('onerror');
      expect(html).not.toContain('<img');
      expect(html).toContain('href="https://elsewhere.example/x.png"');
    }

    // Nobody moves for 40 s (past y-protocols' 15 s renewal and 30 s timeout): no awareness frame,
    // and each still shows the other's cursor.
    await new Promise((r) => setTimeout(r, 500));
    const quiet = { a: sentA.awareness, b: sentB.awareness };
    await Promise.all([a.clock.fastForward(40_000), b.clock.fastForward(40_000)]);
    await new Promise((r) => setTimeout(r, 1500));
    expect({ a: sentA.awareness, b: sentB.awareness }).toEqual(quiet);
    expect(await caretNames(a)).toEqual(['Bob Babbage']);
    expect(await caretNames(b)).toEqual(['Ada Lovelace']);
    // A move is a frame.
    await b.keyboard.press('Control+Home');
    await a.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector('.cm-ySelectionInfo'),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(sentB.awareness).toBe(quiet.b + 1);

    let content = '';
    const deadline = Date.now() + 20_000;
    while (content !== expected && Date.now() < deadline) {
      content = (await http('GET', `/v1/notes/${note.id}`, { token: ada.token })).body?.content;
      if (content !== expected) await new Promise((r) => setTimeout(r, 200));
    }
    expect(content).toBe(expected);
    expect(problems).toEqual([]);
    await Promise.all([a.context().close(), b.context().close()]);
  }, 180_000);

  it("a reader's tab follows the writer's typing read-only", async () => {
    const note = await createNote(ada.token, { content: 'Read me\n', readPermission: 'signed_in' });
    const context = await browser.newContext();
    const writer = await context.newPage();
    const read = await context.newPage();
    await open(writer, note.id, ada.token);
    await open(read, note.id, bob.token);
    expect(await read.locator('#status').innerText()).toContain('read only');
    expect(await read.locator('.cm-content').getAttribute('contenteditable')).toBe('false');
    await read.click('.cm-content');
    await read.keyboard.type('not allowed');
    await writer.click('.cm-content');
    await writer.keyboard.press('Control+End');
    await writer.keyboard.type('More.', { delay: 20 });
    await textIs(read, 'Read me\nMore.');
    await read.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector('#preview')!.innerHTML.includes('More.'),
    );
    await context.close();
  }, 120_000);
});
