// Passkeys (the `device` factor) end to end, in Chromium with the DevTools protocol's virtual
// authenticator on a page of the runner's origin (http://localhost:<PORT>, RP ID `localhost`): the
// browser's own credentials through lib/bank/passkeys.ts, then through the API: enrol, activate,
// verify, step up; a replayed assertion, a forged signature, an assertion without user
// verification and a second registration of the same authenticator are refused.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticationOptions,
  type PasskeyConfig,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from '../../lib/bank/passkeys.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { chromiumMissing } from '../support/chromium.ts';
import {
  forgeSignature,
  openAuthenticator,
  type VirtualAuthenticator,
} from '../support/virtual-authenticator.ts';
import { call, expectError, local } from './helpers.ts';

if (chromiumMissing) console.log(`passkey tests skipped: ${chromiumMissing}`);
const runnerUrl = process.env.LOCAL_RUNNER_URL ?? 'http://localhost:3000';

describe.skipIf(chromiumMissing !== undefined)('passkeys in Chromium', () => {
  let authenticator: VirtualAuthenticator;
  beforeAll(async () => {
    authenticator = await openAuthenticator(runnerUrl);
  }, 60_000);
  afterAll(() => authenticator?.close());

  describe("the browser's credentials through lib/bank/passkeys.ts", () => {
    const cfg = (): PasskeyConfig => ({
      rpId: 'localhost',
      rpName: 'Tri Bank',
      origins: [authenticator.origin],
    });

    it('registers, authenticates with a growing counter, refuses a replay and a forgery', async () => {
      const options = await registrationOptions(cfg(), { id: 'usr_lib', name: 'lib' }, []);
      const registration = await authenticator.create(options);
      const passkey = await verifyRegistration(cfg(), registration, options.challenge);
      expect(passkey.credentialId).toBe(registration.id);
      const held = (await authenticator.credentials()).find((c) => c.credentialId === registration.id);
      expect(held).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

      const request = await authenticationOptions(cfg(), [passkey]);
      const assertion = await authenticator.get(request);
      const { newCounter } = await verifyAuthentication(cfg(), assertion, request.challenge, passkey);
      expect(newCounter).toBeGreaterThan(passkey.counter);
      const stored = { ...passkey, counter: newCounter };

      // The same assertion again, even were its challenge still open: the counter did not grow.
      await expect(verifyAuthentication(cfg(), assertion, request.challenge, stored)).rejects.toMatchObject({
        fields: [{ field: 'credential', message: expect.stringMatching(/counter/) }],
      });
      const next = await authenticationOptions(cfg(), [stored]);
      await expect(
        verifyAuthentication(cfg(), forgeSignature(await authenticator.get(next)), next.challenge, stored),
      ).rejects.toMatchObject({ fields: [{ field: 'credential', message: 'The signature is not valid' }] });
    }, 60_000);

    it('refuses an origin the RP does not allow', async () => {
      const options = await registrationOptions(cfg(), { id: 'usr_lib2', name: 'lib2' }, []);
      const registration = await authenticator.create(options);
      await expect(
        verifyRegistration({ ...cfg(), origins: ['https://bank.example'] }, registration, options.challenge),
      ).rejects.toMatchObject({
        fields: [{ field: 'credential', message: expect.stringMatching(/origin/) }],
      });
    }, 60_000);
  });

  describe.skipIf(!local)('through the API', () => {
    const devices = (u: TestUser) => `/api/users/${u.id}/devices`;
    const activate = (u: TestUser, deviceId: string, body: unknown, headers?: Record<string, string>) =>
      call('POST', `${devices(u)}/${deviceId}/activate`, { token: u.token, body, headers });
    const start = (u: TestUser, deviceId: string) =>
      call('POST', `/api/users/${u.id}/verifications`, { token: u.token, body: { device_id: deviceId } });
    const verify = (u: TestUser, verificationId: string, credential: unknown) =>
      call('POST', `/api/users/${u.id}/verifications/${verificationId}`, {
        token: u.token,
        body: { credential },
      });

    /** Enrols and activates a passkey held by the virtual authenticator. */
    async function enrolled(u: TestUser, headers?: Record<string, string>) {
      const res = await call('POST', devices(u), {
        token: u.token,
        body: { kind: 'device', name: 'Laptop' },
        headers,
      });
      expect(res.status, res.text).toBe(201);
      const options = res.body.activation.public_key as PublicKeyCredentialCreationOptionsJSON;
      return { res, options };
    }

    /** Starts a verification of the passkey and signs its challenge in the browser. */
    async function signed(u: TestUser, deviceId: string) {
      const started = await start(u, deviceId);
      expect(started.status, started.text).toBe(201);
      const options = started.body.public_key as PublicKeyCredentialRequestOptionsJSON;
      return { id: started.body.id as string, options, assertion: await authenticator.get(options) };
    }

    it('enrols a passkey: options once, activation by the credential, then verification', async () => {
      const u = await newUser('Passkey');
      const { res, options } = await enrolled(u);
      const deviceId = res.body.id as string;
      expect(res.headers.get('location')).toMatch(new RegExp(`/api/users/${u.id}/devices/${deviceId}$`));
      expect(res.body).toMatchObject({ kind: 'device', name: 'Laptop', status: 'pending_activation' });
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: expect.any(String) },
        user: { id: expect.any(String), name: expect.any(String) },
        challenge: expect.any(String),
        authenticatorSelection: { userVerification: 'required' },
        excludeCredentials: [],
      });
      expect(options.pubKeyCredParams.map((p) => p.alg).sort()).toEqual([-257, -7]);

      // A pending passkey does not verify.
      expect((await start(u, deviceId)).status).toBeGreaterThanOrEqual(400);

      const registration = await authenticator.create(options);
      const activated = await activate(u, deviceId, { credential: registration });
      expect(activated.status, activated.text).toBe(200);
      expect(activated.body).toMatchObject({ id: deviceId, kind: 'device', status: 'active' });
      // The challenge was single-use: the same registration again is refused.
      expect((await activate(u, deviceId, { credential: registration })).status).toBeGreaterThanOrEqual(400);

      const listed = await call('GET', devices(u), { token: u.token });
      expect(listed.body).toEqual([expect.objectContaining({ id: deviceId, status: 'active' })]);
      expect(listed.text).not.toContain(options.challenge);
      expect(listed.text).not.toContain(registration.id);

      const { id, assertion, options: request } = await signed(u, deviceId);
      expect(request).toMatchObject({
        rpId: 'localhost',
        userVerification: 'required',
        allowCredentials: [expect.objectContaining({ id: registration.id, type: 'public-key' })],
      });
      const approved = await verify(u, id, assertion);
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body).toMatchObject({ status: 'approved' });
      const polled = await call('GET', `/api/users/${u.id}/verifications/${id}`, { token: u.token });
      expect(polled.body).toMatchObject({ id, device_id: deviceId, status: 'approved' });
    }, 120_000);

    it('refuses a replayed assertion and a forged signature; the genuine one still verifies', async () => {
      const u = await newUser('Passkey replay');
      const { res, options } = await enrolled(u);
      const deviceId = res.body.id as string;
      expect((await activate(u, deviceId, { credential: await authenticator.create(options) })).status).toBe(
        200,
      );

      const first = await signed(u, deviceId);
      expect((await verify(u, first.id, first.assertion)).status).toBe(200);
      // Replayed: on the approved verification, and on a new one (another challenge, a stale counter).
      expect((await verify(u, first.id, first.assertion)).status).toBeGreaterThanOrEqual(400);
      const second = await signed(u, deviceId);
      expectError(await verify(u, second.id, first.assertion), 422, ['credential']);
      // Forged: one byte of the signature changed.
      expectError(await verify(u, second.id, forgeSignature(second.assertion)), 422, ['credential']);
      const polled = await call('GET', `/api/users/${u.id}/verifications/${second.id}`, { token: u.token });
      expect(polled.body.status).toBe('pending');
      const genuine = await verify(u, second.id, second.assertion);
      expect(genuine.status, genuine.text).toBe(200);
    }, 120_000);

    it('requires user verification', async () => {
      const u = await newUser('Passkey UV');
      const { res, options } = await enrolled(u);
      const deviceId = res.body.id as string;
      expect((await activate(u, deviceId, { credential: await authenticator.create(options) })).status).toBe(
        200,
      );
      const started = await start(u, deviceId);
      // A client that lowers the request to `discouraged`, with an authenticator that verifies no one:
      // the assertion carries no UV flag, and the server must refuse it.
      await authenticator.setUserVerified(false);
      let assertion: AuthenticationResponseJSON;
      try {
        assertion = await authenticator.get({ ...started.body.public_key, userVerification: 'discouraged' });
      } finally {
        await authenticator.setUserVerified(true);
      }
      const flags = Buffer.from(assertion.response.authenticatorData, 'base64url')[32];
      expect(flags & 0x04, 'UV flag').toBe(0);
      const refused = await verify(u, started.body.id, assertion);
      expectError(refused, 422, ['credential']);
      expect(JSON.stringify(refused.body)).toMatch(/User verification is required/);
      expect(
        (await call('GET', `/api/users/${u.id}/verifications/${started.body.id}`, { token: u.token })).body
          .status,
      ).toBe('pending');
    }, 120_000);

    it('excludes the passkeys a user has: the same authenticator cannot register twice', async () => {
      const u = await newUser('Passkey twice');
      const { res, options } = await enrolled(u);
      const deviceId = res.body.id as string;
      const registration = await authenticator.create(options);
      expect((await activate(u, deviceId, { credential: registration })).status).toBe(200);

      // A second factor needs a step-up: the passkey itself gives it.
      const stepUp = await signed(u, deviceId);
      expect((await verify(u, stepUp.id, stepUp.assertion)).status).toBe(200);
      const again = await enrolled(u, { 'X-MFA-Verification': stepUp.id });
      expect(again.options.excludeCredentials).toEqual([
        expect.objectContaining({ id: registration.id, type: 'public-key' }),
      ]);
      await expect(authenticator.create(again.options)).rejects.toThrow(/InvalidStateError|registered/i);
    }, 120_000);

    it('names the malformed field of the credential, with a 4xx', async () => {
      const u = await newUser('Passkey bad input');
      const { res, options } = await enrolled(u);
      const deviceId = res.body.id as string;
      const registration = await authenticator.create(options);
      expectError(
        await activate(u, deviceId, {
          credential: { ...registration, response: { ...registration.response, clientDataJSON: '%%%' } },
        }),
        422,
        ['credential.response.clientDataJSON'],
      );
      const junk = await activate(u, deviceId, { credential: 'not a credential' });
      expect(junk.status).toBeGreaterThanOrEqual(400);
      expect(junk.status).toBeLessThan(500);
      // Nothing was half-written: the genuine registration still activates.
      expect((await activate(u, deviceId, { credential: registration })).status).toBe(200);
    }, 120_000);
  });
});
