// Passkeys in a real browser: headless Chromium (playwright-core) with the DevTools protocol's
// virtual authenticator (CTAP2, internal, resident keys, user verification that succeeds), on a
// page of the given origin (http://localhost:<PORT>: a secure context whose RP ID is `localhost`).
// The page is what a bank's front end runs: @simplewebauthn/browser's startRegistration and
// startAuthentication (its own bundle, loaded into the page) on the API's options JSON. The page's
// document is served by the test (a route), so the browser sends nothing over the network.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';

/** The package's own browser bundle (its `exports` name only the module entry points). */
const BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
  '../dist/bundle/index.umd.min.js',
);

/** A credential the virtual authenticator holds (CDP WebAuthn.Credential). */
export interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  signCount: number;
  userHandle?: string;
}

export interface VirtualAuthenticator {
  readonly origin: string;
  /** navigator.credentials.create() on the options, as the front end would call it. */
  create(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON>;
  /** navigator.credentials.get() on the options. */
  get(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON>;
  /** What the authenticator holds (ids and signature counters). */
  credentials(): Promise<HeldCredential[]>;
  /** Whether the authenticator verifies its user (false: it answers without the UV flag). */
  setUserVerified(verified: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Launches Chromium with a virtual authenticator on a page of `origin`. Close it in afterAll. */
export async function openAuthenticator(origin: string): Promise<VirtualAuthenticator> {
  const browser: Browser = await launchChromium();
  try {
    const page: Page = await browser.newPage();
    const url = new URL('/__passkeys', origin).href;
    await page.route(url, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>passkeys</title>' }),
    );
    await page.goto(url);
    await page.addScriptTag({ path: BUNDLE });
    const cdp: CDPSession = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return {
      origin: new URL(origin).origin,
      create: (optionsJSON) =>
        page.evaluate(
          (o) =>
            (
              globalThis as unknown as {
                SimpleWebAuthnBrowser: { startRegistration(a: unknown): Promise<RegistrationResponseJSON> };
              }
            ).SimpleWebAuthnBrowser.startRegistration({ optionsJSON: o }),
          optionsJSON,
        ),
      get: (optionsJSON) =>
        page.evaluate(
          (o) =>
            (
              globalThis as unknown as {
                SimpleWebAuthnBrowser: {
                  startAuthentication(a: unknown): Promise<AuthenticationResponseJSON>;
                };
              }
            ).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: o }),
          optionsJSON,
        ),
      // (CDP gives ids in base64; the API and WebAuthn JSON in base64url.)
      credentials: async () =>
        (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.map((c) => ({
          credentialId: Buffer.from(c.credentialId, 'base64').toString('base64url'),
          isResidentCredential: c.isResidentCredential,
          rpId: c.rpId,
          signCount: c.signCount,
          userHandle: c.userHandle && Buffer.from(c.userHandle, 'base64').toString('base64url'),
        })),
      setUserVerified: async (isUserVerified) => {
        await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified });
      },
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/** The same assertion with one byte of its signature changed: what a forger without the key can send. */
export function forgeSignature(assertion: AuthenticationResponseJSON): AuthenticationResponseJSON {
  const signature = Buffer.from(assertion.response.signature, 'base64url');
  signature[signature.length - 1] ^= 0x01;
  return { ...assertion, response: { ...assertion.response, signature: signature.toString('base64url') } };
}
