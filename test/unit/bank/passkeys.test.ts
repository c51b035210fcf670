// The passkey ceremonies against a software authenticator (real ES256 keys, CBOR attestation):
// what is accepted and, for each check the bank relies on, a credential that fails only that check.
import { describe, expect, it } from 'vitest';
import {
  authenticationOptions,
  type PasskeyConfig,
  registrationOptions,
  type StoredPasskey,
  verifyAuthentication,
  verifyRegistration,
} from '../../../lib/bank/passkeys.ts';
import { Invalid } from '../../../lib/domain/errors.ts';
import { createCredential, getAssertion } from '../../support/software-authenticator.ts';

const cfg: PasskeyConfig = {
  rpId: 'localhost',
  rpName: 'Tri Bank',
  origins: ['http://localhost:3000', 'https://bank.example'],
};
const origin = 'http://localhost:3000';
const user = { id: 'usr_1', name: 'alice' };

/** A passkey registered through the ceremony, and what authenticates with it. */
async function registered(counter = 0) {
  const options = await registrationOptions(cfg, user, []);
  const { response, credential } = createCredential(options, { origin }, { counter });
  const passkey = await verifyRegistration(cfg, response, options.challenge);
  return { passkey, credential };
}

const fieldOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Invalid);
  return (err as Invalid).fields?.map((f) => f.field);
};

describe('registration options', () => {
  it('asks for ES256 or RS256, user verification, a resident key if possible, and excludes known passkeys', async () => {
    const { passkey } = await registered();
    const options = await registrationOptions(cfg, { ...user, displayName: 'Alice' }, [passkey]);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Tri Bank' });
    expect(options.user).toMatchObject({ name: 'alice', displayName: 'Alice' });
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe('usr_1');
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257]);
    expect(options.authenticatorSelection).toMatchObject({
      userVerification: 'required',
      residentKey: 'preferred',
    });
    expect(options.attestation).toBe('none');
    expect(options.excludeCredentials).toEqual([
      { id: passkey.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    expect(Buffer.from(options.challenge, 'base64url').length).toBeGreaterThanOrEqual(32);
    const again = await registrationOptions(cfg, user, []);
    expect(again.challenge).not.toBe(options.challenge);
  });
});

describe('verifyRegistration', () => {
  it('stores the credential id, its COSE public key, counter and transports', async () => {
    const options = await registrationOptions(cfg, user, []);
    const { response } = createCredential(options, { origin: 'https://bank.example' }, { counter: 7 });
    const passkey = await verifyRegistration(cfg, response, options.challenge);
    expect(passkey).toEqual({
      credentialId: response.id,
      publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{70,}$/),
      counter: 7,
      transports: ['internal'],
    });
  });

  it.each([
    ['another challenge', { challenge: 'c29tZS1vdGhlci1jaGFsbGVuZ2U' }, /another challenge/],
    ['an origin not allowed', { origin: 'https://evil.example' }, /origin/],
    ['another RP ID', { rpId: 'evil.example' }, /RP ID/],
    ['no user verification', { userVerified: false }, /User verification/],
    ['an assertion type', { type: 'webauthn.get' }, /not of this ceremony/],
  ])('refuses %s on credential', async (_, ceremony, reason) => {
    const options = await registrationOptions(cfg, user, []);
    const { response } = createCredential(options, { origin, ...ceremony });
    const err = await verifyRegistration(cfg, response, options.challenge).catch((e: Invalid) => e);
    expect(err).toBeInstanceOf(Invalid);
    expect((err as Invalid).fields).toEqual([
      { field: 'credential', message: expect.stringMatching(reason) },
    ]);
    // The expected challenge is never told to the caller.
    expect(JSON.stringify((err as Invalid).fields)).not.toContain(options.challenge);
  });

  it('accepts an RS256 key of 2048 bits, which then authenticates', async () => {
    const options = await registrationOptions(cfg, user, []);
    const { response, credential } = createCredential(options, { origin }, { rsaModulusBits: 2048 });
    const passkey = await verifyRegistration(cfg, response, options.challenge);
    expect(passkey.credentialId).toBe(response.id);
    const request = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(request, credential, { origin });
    await expect(verifyAuthentication(cfg, assertion, request.challenge, passkey)).resolves.toEqual({
      newCounter: 0,
    });
  });

  it.each([512, 1024, 16_392, 60_000])(
    'refuses an RS256 key of %i bits on credential, and a stored one cannot authenticate',
    async (bits) => {
      const options = await registrationOptions(cfg, user, []);
      const { response, credential } = createCredential(options, { origin }, { rsaModulusBits: bits });
      const err = await verifyRegistration(cfg, response, options.challenge).catch((e: Invalid) => e);
      expect(err).toBeInstanceOf(Invalid);
      expect((err as Invalid).fields).toEqual([
        { field: 'credential', message: expect.stringMatching(/2048 to 4096 bits/) },
      ]);
      if (bits > 4096) return;
      // A passkey stored before the rule existed: its assertions are refused too.
      const cose = new Uint8Array(Buffer.from(response.response.attestationObject, 'base64url'));
      const { decodeAttestationObject, parseAuthenticatorData } = await import(
        '@simplewebauthn/server/helpers'
      );
      const authData = parseAuthenticatorData(decodeAttestationObject(cose).get('authData'));
      const stored: StoredPasskey = {
        credentialId: response.id,
        publicKey: Buffer.from(authData.credentialPublicKey as Uint8Array).toString('base64url'),
        counter: 0,
      };
      const request = await authenticationOptions(cfg, [stored]);
      const assertion = getAssertion(request, credential, { origin });
      expect(await fieldOf(verifyAuthentication(cfg, assertion, request.challenge, stored))).toEqual([
        'credential',
      ]);
    },
    30_000,
  );

  it('names the malformed field of the WebAuthn JSON', async () => {
    const options = await registrationOptions(cfg, user, []);
    const { response } = createCredential(options, { origin });
    const bad = { ...response, response: { ...response.response, clientDataJSON: 'not base64url!' } };
    expect(await fieldOf(verifyRegistration(cfg, bad, options.challenge))).toEqual([
      'credential.response.clientDataJSON',
    ]);
    expect(
      await fieldOf(verifyRegistration(cfg, { ...response, type: 'password' }, options.challenge)),
    ).toEqual(['credential.type']);
    expect(await fieldOf(verifyRegistration(cfg, 'a string', options.challenge))).toEqual(['credential']);
    expect(
      await fieldOf(
        verifyRegistration(
          cfg,
          { ...response, response: { ...response.response, attestationObject: 'A'.repeat(20_000) } },
          options.challenge,
        ),
      ),
    ).toEqual(['credential.response.attestationObject']);
  });

  it('refuses well-formed base64url that is not an attestation, without a 5xx', async () => {
    const options = await registrationOptions(cfg, user, []);
    const { response } = createCredential(options, { origin });
    for (const junk of [
      { clientDataJSON: Buffer.from('{not json').toString('base64url') },
      { attestationObject: Buffer.from('garbage that is no CBOR map').toString('base64url') },
    ])
      expect(
        await fieldOf(
          verifyRegistration(
            cfg,
            { ...response, response: { ...response.response, ...junk } },
            options.challenge,
          ),
        ),
      ).toEqual(['credential']);
  });
});

describe('authentication', () => {
  it('asks for user verification and allows only the given passkeys', async () => {
    const { passkey } = await registered();
    const options = await authenticationOptions(cfg, [passkey]);
    expect(options).toMatchObject({
      rpId: 'localhost',
      userVerification: 'required',
      allowCredentials: [{ id: passkey.credentialId, type: 'public-key', transports: ['internal'] }],
    });
  });

  it('accepts a signed assertion and answers the counter to store', async () => {
    const { passkey, credential } = await registered(3);
    const options = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(options, credential, { origin });
    expect(await verifyAuthentication(cfg, assertion, options.challenge, passkey)).toEqual({ newCounter: 4 });
  });

  it('accepts an authenticator that keeps no counter (0 both sides)', async () => {
    const { passkey, credential } = await registered(0);
    const options = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(options, credential, { origin });
    expect(await verifyAuthentication(cfg, assertion, options.challenge, passkey)).toEqual({ newCounter: 0 });
  });

  it('refuses a replayed assertion: the counter did not grow', async () => {
    const { passkey, credential } = await registered(3);
    const first = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(first, credential, { origin });
    const { newCounter } = await verifyAuthentication(cfg, assertion, first.challenge, passkey);
    const stored: StoredPasskey = { ...passkey, counter: newCounter };
    // The same assertion again (had its challenge been reusable), then a fresh one with a stale counter.
    await expect(verifyAuthentication(cfg, assertion, first.challenge, stored)).rejects.toMatchObject({
      fields: [{ field: 'credential', message: expect.stringMatching(/counter/) }],
    });
    const second = await authenticationOptions(cfg, [stored]);
    const cloned = getAssertion(second, credential, { origin }, { counter: newCounter });
    await expect(verifyAuthentication(cfg, cloned, second.challenge, stored)).rejects.toMatchObject({
      fields: [{ field: 'credential', message: expect.stringMatching(/counter/) }],
    });
  });

  it('refuses a forged signature', async () => {
    const { passkey, credential } = await registered(1);
    const options = await authenticationOptions(cfg, [passkey]);
    const forged = getAssertion(options, credential, { origin }, { forge: true });
    await expect(verifyAuthentication(cfg, forged, options.challenge, passkey)).rejects.toMatchObject({
      fields: [{ field: 'credential', message: 'The signature is not valid' }],
    });
  });

  it("refuses another passkey's assertion, even for the right challenge", async () => {
    const mine = await registered(1);
    const theirs = await registered(1);
    const options = await authenticationOptions(cfg, [mine.passkey]);
    const assertion = getAssertion(options, theirs.credential, { origin });
    expect(await fieldOf(verifyAuthentication(cfg, assertion, options.challenge, mine.passkey))).toEqual([
      'credential.id',
    ]);
    // Their id with a signature of another key: the signature check catches it.
    const spoofed = { ...assertion, id: mine.passkey.credentialId, rawId: mine.passkey.credentialId };
    await expect(verifyAuthentication(cfg, spoofed, options.challenge, mine.passkey)).rejects.toMatchObject({
      fields: [{ field: 'credential', message: 'The signature is not valid' }],
    });
  });

  it.each([
    ['another challenge', { challenge: 'c29tZS1vdGhlci1jaGFsbGVuZ2U' }, /another challenge/],
    ['an origin not allowed', { origin: 'http://localhost:4000' }, /origin/],
    ['another RP ID', { rpId: 'evil.example' }, /RP ID/],
    ['no user verification', { userVerified: false }, /User verification/],
    ['a registration type', { type: 'webauthn.create' }, /not of this ceremony/],
  ])('refuses %s', async (_, ceremony, reason) => {
    const { passkey, credential } = await registered(1);
    const options = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(options, credential, { origin, ...ceremony });
    const err = await verifyAuthentication(cfg, assertion, options.challenge, passkey).catch(
      (e: Invalid) => e,
    );
    expect((err as Invalid).fields).toEqual([
      { field: 'credential', message: expect.stringMatching(reason) },
    ]);
    expect(JSON.stringify((err as Invalid).fields)).not.toContain(options.challenge);
  });

  it('names malformed fields of the assertion', async () => {
    const { passkey, credential } = await registered(1);
    const options = await authenticationOptions(cfg, [passkey]);
    const assertion = getAssertion(options, credential, { origin });
    const { signature: _, ...noSignature } = assertion.response;
    expect(
      await fieldOf(
        verifyAuthentication(cfg, { ...assertion, response: noSignature }, options.challenge, passkey),
      ),
    ).toEqual(['credential.response.signature']);
    expect(await fieldOf(verifyAuthentication(cfg, null, options.challenge, passkey))).toEqual([
      'credential',
    ]);
    const short = { ...assertion.response, authenticatorData: Buffer.alloc(10).toString('base64url') };
    expect(
      await fieldOf(verifyAuthentication(cfg, { ...assertion, response: short }, options.challenge, passkey)),
    ).toEqual(['credential']);
  });
});
