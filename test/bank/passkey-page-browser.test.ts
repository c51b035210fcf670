// The passkey page `npm start` serves at /_bank/passkey (examples/bank/passkey.html, infra/local/
// passkey-page.ts), used as a new user would: in Chromium with the DevTools protocol's virtual
// authenticator, on the page the runner serves at the stack's own origin (the only passkey origin
// locally). It enrols a passkey with the browser's own navigator.credentials.create, verifies it with
// navigator.credentials.get and uses the approved verification as the step-up of a large transfer;
// a user who already has an OTP factor (as the Demo User does) steps up with its code first. The page
// alone allows WebAuthn in its Permissions-Policy; API answers keep forbidding it.
// Debian's /usr/bin/chromium driven by playwright-core; skipped without it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../lib/bank/totp.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { http } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, enroll, local } from './helpers.ts';

if (chromiumMissing) console.log(`passkey page browser test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== undefined || !local)('the passkey page of npm start', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  /** The runner's page, with a virtual authenticator (CTAP2, internal, user verification that succeeds). */
  async function open(user: TestUser): Promise<{ page: Page; problems: string[] }> {
    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const res = await page.goto(`${process.env.LOCAL_RUNNER_URL}/_bank/passkey`);
    expect(res?.status()).toBe(200);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.fill('#token', user.token);
    await page.fill('#user', user.id);
    await page.click('#who button[type=submit]');
    await reached(page, 'loaded');
    return { page, problems };
  }

  /** Waits for the page's status line to reach `state` (or fail) and returns its text. */
  async function reached(page: Page, state: string): Promise<string> {
    const status = page.locator(`#status[data-state="${state}"], #status[data-state="error"]`);
    await status.waitFor({ timeout: 150_000 });
    const text = await status.innerText();
    expect(await status.getAttribute('data-state'), text).toBe(state);
    return text;
  }

  it('serves the page with WebAuthn allowed for itself only; API answers still forbid it', {
    timeout: 400_000,
  }, async () => {
    const page = await http('GET', '/_bank/passkey');
    expect(page.status).toBe(200);
    const policy = page.headers.get('permissions-policy') ?? '';
    expect(policy).toContain('publickey-credentials-get=(self)');
    expect(policy).toContain('publickey-credentials-create=(self)');
    expect(policy).toContain('camera=()');
    const script = await http('GET', '/_bank/passkey.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const u = await newUser('Passkey Page Headers');
    const api = await http('GET', `/api/users/${u.id}/devices`, { token: u.token });
    expect(api.headers.get('permissions-policy')).toContain('publickey-credentials-get=()');
  });

  it('a new user enrols a passkey, verifies with it and uses it as the step-up of a transfer', async () => {
    const u = await newUser('Passkey Page');
    const { page, problems } = await open(u);
    await page.fill('#name', 'Chromium');
    await page.click('#enrol button[type=submit]');
    const enrolled = await reached(page, 'enrolled');
    expect(enrolled).toMatch(/Recovery codes \(shown once\): (\w{4}-\w{4}-\w{4} ?){10}/);
    const factors = await call('GET', `/api/users/${u.id}/devices`, { token: u.token });
    expect(factors.body).toEqual([
      expect.objectContaining({ kind: 'device', name: 'Chromium', status: 'active', default: true }),
    ]);
    const passkeyId = factors.body[0].id;
    expect(enrolled).toContain(passkeyId);
    expect(await page.inputValue('#passkey')).toBe(passkeyId);

    await page.click('#verify button[type=submit]');
    await reached(page, 'verified');
    const verificationId = await page.inputValue('#transfer-step-up');
    expect(verificationId).toMatch(/^ver_/);
    const approved = await call('GET', `/api/users/${u.id}/verifications/${verificationId}`, {
      token: u.token,
    });
    expect(approved.body).toMatchObject({ device_id: passkeyId, status: 'approved' });

    await page.click('#transfer button[type=submit]');
    const sent = await reached(page, 'transferred');
    const transferId = /Transfer (tr_\w+)/.exec(sent)?.[1];
    const transfer = await call('GET', `/api/transfers/${transferId}`, { token: u.token });
    expect(transfer.body).toMatchObject({ amount: 1000000, currency: 'eur' });
    // The step-up was used once: the same verification again is refused.
    await page.fill('#transfer-step-up', verificationId);
    await page.click('#transfer button[type=submit]');
    expect(await reached(page, 'error')).toMatch(/403/);
    expect(problems).toEqual([]);
  }, 400_000);

  it('a user with an OTP factor (as the Demo User) steps up with its code, then enrols', async () => {
    const u = await newUser('Passkey Page OTP');
    const otp = await enroll(u, 'otp');
    const { page, problems } = await open(u);
    await page.click('#enrol button[type=submit]');
    expect(await reached(page, 'error')).toMatch(/403/);

    await page.waitForSelector(`#code-factor option[value="${otp.device.id}"]`, { state: 'attached' });
    await page.click('#code-start');
    await reached(page, 'code-sent');
    await page.fill('#code', await totpCode(otp.secret!, Math.floor(Date.now() / 1000)));
    await page.click('#code-form button[type=submit]');
    await reached(page, 'stepped-up');
    await page.click('#enrol button[type=submit]');
    expect(await reached(page, 'enrolled')).not.toContain('Recovery codes');
    await page.click('#verify button[type=submit]');
    await reached(page, 'verified');
    const kinds = (await call('GET', `/api/users/${u.id}/devices`, { token: u.token })).body.map(
      (f: { kind: string; status: string }) => `${f.kind}:${f.status}`,
    );
    expect(kinds).toEqual(['otp:active', 'device:active']);
    expect(problems).toEqual([]);
  }, 400_000);
});
