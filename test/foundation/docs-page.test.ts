// `/` on the local runner: the three OpenAPI documents in Swagger UI (served from the
// swagger-ui-dist package, nothing from a CDN), driven in headless Chromium: authorize with a
// token, "Try it out" on GET /v1/me, and the call reaches this runner, whether the page was opened at
// localhost or at 127.0.0.1 (the documents name the origin the page was opened at). Screenshots in
// test-results/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { newUser } from '../support/identity.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
if (chromiumMissing) console.log(`docs page test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== undefined || !local)('docs page at /', () => {
  let browser: import('playwright-core').Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** Opens the docs page at `url`, authorizes, runs "Try it out" on GET /v1/me: the call reaches this runner. */
  async function tryItOut(url: string, screenshot?: string) {
    const user = await newUser('Docs Page');
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const foreign: string[] = [];
    const calls: string[] = [];
    const failed: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(url) && !req.url().startsWith('data:')) foreign.push(req.url());
      if (req.url().startsWith(`${url}/v1/me`)) calls.push(`${req.method()} ${req.headers().authorization}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => failed.push(`${req.failure()?.errorText} ${req.url()}`));
    await page.goto(`${url}/`);
    await page.locator('.opblock-summary-path[data-path="/v1/me"]').first().waitFor({ timeout: 60_000 });
    // The page's own server: the origin it was opened at.
    expect(await page.locator('.servers select option').first().innerText()).toContain(url);

    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input').first().fill(user.token);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done, .modal-ux .close-modal').first().click();

    const op = page
      .locator('.opblock')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/v1/me"]') })
      .first();
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 60_000 });
    expect((await status.innerText()).trim(), `Try it out at ${url}`).toBe('200');
    expect(await op.locator('.live-responses-table').first().innerText()).toContain(user.id);
    expect(calls).toEqual([`GET Bearer ${user.token}`]);
    // Grouped by tag, not under "default".
    expect(await page.locator('.opblock-tag-section h3').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Profile'), expect.stringContaining('User Notes')]),
    );
    expect(await page.locator('.opblock-tag-section h3').allInnerTexts()).not.toContainEqual(
      expect.stringContaining('default'),
    );

    if (screenshot) {
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-results', screenshot), fullPage: false });
    }

    for (const name of ['News', 'Bank']) {
      await page.goto(`${url}/?api=${name}`);
      await page.locator('.opblock-summary-path').first().waitFor({ timeout: 60_000 });
      expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(3);
    }
    expect(foreign).toEqual([]);
    // Nothing the page asked for failed: the favicon included.
    expect(failed).toEqual([]);
    await page.close();
  }

  it('at localhost: shows each API and makes a "try it" call to this runner, loading nothing from elsewhere', async () => {
    const url = process.env.LOCAL_RUNNER_URL!;
    expect(new URL(url).hostname).toBe('localhost');
    await tryItOut(url, 'docs-page.png');
  });

  it('at 127.0.0.1, the same runner: "try it" calls 127.0.0.1 (its own origin), not localhost', async () => {
    const url = process.env.LOCAL_RUNNER_URL!.replace('//localhost:', '//127.0.0.1:');
    await tryItOut(url, 'docs-page-127.0.0.1.png');
  });
});
