// Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core,
// launched the same way by every test (no sandbox, as root in a container; no background requests,
// so the browser sends nothing but what the page asks for). A test skips itself where it is absent.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Why the browser tests cannot run here, if they cannot. */
export const chromiumMissing = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;

/** Launches headless Chromium. Close it in afterAll. */
export async function launchChromium(): Promise<Browser> {
  if (chromiumMissing) throw new Error(chromiumMissing);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
}
