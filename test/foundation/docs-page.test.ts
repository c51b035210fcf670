// `/` on the local runner: the three OpenAPI documents in Swagger UI (served from the
// swagger-ui-dist package, nothing from a CDN), driven in headless Chromium: authorize with a
// token, "Try it out" on GET /v1/me, and the call reaches this runner. Screenshot in test-results/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { newUser } from '../support/identity.ts';

const CHROMIUM = '/usr/bin/chromium';
const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
const missing = !existsSync(CHROMIUM);
if (missing) console.log(`docs page test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(missing || !local)('docs page at /', () => {
  let browser: import('playwright-core').Browser;
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
  });
  afterAll(() => browser?.close());

  it('shows each API and makes a "try it" call to this runner, loading nothing from elsewhere', async () => {
    const url = process.env.LOCAL_RUNNER_URL!;
    const user = await newUser('Docs Page');
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const foreign: string[] = [];
    const calls: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(url) && !req.url().startsWith('data:')) foreign.push(req.url());
      if (req.url().startsWith(`${url}/v1/me`)) calls.push(`${req.method()} ${req.headers().authorization}`);
    });
    await page.goto(`${url}/`);
    await page.locator('.opblock-summary-path[data-path="/v1/me"]').first().waitFor({ timeout: 60_000 });

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
    expect((await status.innerText()).trim()).toBe('200');
    expect(await op.locator('.live-responses-table').first().innerText()).toContain(user.id);
    expect(calls).toEqual([`GET Bearer ${user.token}`]);

    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results', 'docs-page.png'), fullPage: false });

    for (const name of ['News', 'Bank']) {
      await page.goto(`${url}/?api=${name}`);
      await page.locator('.opblock-summary-path').first().waitFor({ timeout: 60_000 });
      expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(3);
    }
    expect(foreign).toEqual([]);
  });
});
