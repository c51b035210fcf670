// Passkeys (the `device` factor kind): WebAuthn registration and authentication with
// @simplewebauthn/server, in WebAuthn Level 3's JSON forms. No I/O here: the caller stores the
// challenge (single use, with a ttl) and the passkey (credential id, COSE public key, counter,
// transports). User verification is required on both sides; ES256 (P-256) and RS256 with a
// 2048–4096-bit modulus only; attestation
// `none` (a bank proves possession of the key, not the authenticator's make).
// What the library refuses is a 422 on `credential` (with the reason, never the expected challenge);
// a credential that is not WebAuthn JSON at all names the field that is wrong.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { Invalid } from '../domain/errors.ts';
import { object, safeParse } from '../domain/schema.ts';

export type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON };

/**
 * The library, loaded on the first ceremony: it is most of a bundle that carries it (attestation
 * formats, ASN.1, CBOR; ~80 ms of a cold start when loaded up front), and a function that serves
 * every factor kind needs it only for passkeys.
 */
const webauthn = () => import('@simplewebauthn/server');
const helpers = () => import('@simplewebauthn/server/helpers');

/** RSA moduli a bank accepts: below 2048 bits is breakable, above 4096 only costs verification time. */
export const RSA_MODULUS_BITS = { min: 2048, max: 4096 } as const;

/**
 * Why a COSE public key is refused, or undefined when it is ES256 (P-256) or RS256 with a modulus
 * of 2048 to 4096 bits. Decoded with the library's own COSE parser.
 */
async function keyRefusal(publicKey: Uint8Array): Promise<string | undefined> {
  const { decodeCredentialPublicKey, cose } = await helpers();
  let key: ReturnType<typeof decodeCredentialPublicKey>;
  try {
    key = decodeCredentialPublicKey(publicKey as Parameters<typeof decodeCredentialPublicKey>[0]);
  } catch {
    return 'The public key could not be read';
  }
  const alg = key.get(cose.COSEKEYS.alg);
  if (alg === cose.COSEALG.ES256 && cose.isCOSEPublicKeyEC2(key)) {
    return key.get(cose.COSEKEYS.crv) === cose.COSECRV.P256 ? undefined : 'An ES256 key must be on P-256';
  }
  if (alg === cose.COSEALG.RS256 && cose.isCOSEPublicKeyRSA(key)) {
    const n = key.get(cose.COSEKEYS.n);
    const bits = n ? modulusBits(n) : 0;
    return bits >= RSA_MODULUS_BITS.min && bits <= RSA_MODULUS_BITS.max
      ? undefined
      : `An RS256 key must have a modulus of ${RSA_MODULUS_BITS.min} to ${RSA_MODULUS_BITS.max} bits (this one has ${bits})`;
  }
  return 'The credential uses an algorithm that is not allowed (ES256 or RS256)';
}

/** The bit length of a big-endian unsigned integer (leading zero bytes ignored). */
function modulusBits(n: Uint8Array): number {
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  if (i === n.length) return 0;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i] as number));
}

export interface PasskeyConfig {
  /** The RP ID: the site's registrable domain (`localhost` locally). */
  rpId: string;
  /** The name an authenticator shows the user. */
  rpName: string;
  /** The origins a ceremony may come from (`https://bank.example`, `http://localhost:3000`). */
  origins: string[];
}

export interface StoredPasskey {
  /** base64url */
  credentialId: string;
  /** base64url of the COSE public key */
  publicKey: string;
  counter: number;
  transports?: string[];
}

/** COSE ES256 and RS256: what every platform authenticator and security key offers. */
const ALGORITHMS = [-7, -257];
/** How long the browser waits for the user (the challenge's own ttl is the caller's). */
export const CEREMONY_TIMEOUT_MS = 5 * 60_000;

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

// Bounds: every string the library decodes (base64url, then CBOR or JSON) is small, so no input
// makes it work long. An attestation with a certificate chain is a few KB; `none` a few hundred bytes.
const b64url = (max: number) =>
  v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.regex(/^[A-Za-z0-9_-]+$/, 'Must be base64url'));
const credentialId = b64url(1366); // 1023 bytes, WebAuthn's largest credential id
const transports = v.optional(v.pipe(v.array(v.string()), v.maxLength(TRANSPORTS.length)));

/** RegistrationResponseJSON (what `PublicKeyCredential.toJSON()` gives after `create()`). */
export const registrationResponseSchema = object({
  id: credentialId,
  rawId: credentialId,
  type: v.literal('public-key'),
  response: object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    transports,
  }),
  clientExtensionResults: v.optional(object({})),
  authenticatorAttachment: v.optional(v.string()),
});

/** AuthenticationResponseJSON (what `PublicKeyCredential.toJSON()` gives after `get()`). */
export const authenticationResponseSchema = object({
  id: credentialId,
  rawId: credentialId,
  type: v.literal('public-key'),
  response: object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: v.optional(v.pipe(v.string(), v.maxLength(128))),
  }),
  clientExtensionResults: v.optional(object({})),
  authenticatorAttachment: v.optional(v.string()),
});

const invalid = (field: string, message: string) =>
  new Invalid('One or more fields are invalid', { fields: [{ field, message }] });

/** The credential, or Invalid naming each wrong field (`credential.response.clientDataJSON`). */
function parse<S extends v.GenericSchema>(schema: S, credential: unknown): v.InferOutput<S> {
  const result = safeParse(schema, credential);
  if (result.success) return result.output;
  const fields = result.issues.map((issue) => ({
    field: ['credential', ...(issue.path ?? []).map((p) => String(p.key))].join('.'),
    message: issue.message,
  }));
  throw new Invalid('One or more fields are invalid', { fields });
}

/** The library's reasons, in the API's words (the library's own text may quote the expected challenge). */
const REASONS: [RegExp, string][] = [
  [/challenge/i, 'The credential answers another challenge (a used or an unknown one)'],
  [/top origin|origin/i, 'The credential comes from an origin that is not allowed'],
  [/RP ?ID/i, 'The credential is for another RP ID'],
  [/User verification/i, 'User verification is required'],
  [/User (presence|not present)/i, 'User presence is required'],
  [/counter/i, 'The signature counter did not grow: a replayed assertion or a cloned authenticator'],
  [/response type/i, 'The credential is not of this ceremony'],
  [/alg/i, 'The credential uses an algorithm that is not allowed (ES256 or RS256)'],
];
const reasonOf = (err: unknown) => {
  const message = err instanceof Error ? err.message : '';
  return REASONS.find(([re]) => re.test(message))?.[1] ?? 'The credential could not be verified';
};

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** The library's challenge check, constant-time, and without the expected value in any message. */
const challengeIs = (expected: string) => (received: string) => sameText(received, expected);

export async function registrationOptions(
  cfg: PasskeyConfig,
  user: { id: string; name: string; displayName?: string },
  exclude: StoredPasskey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: cfg.rpName,
    rpID: cfg.rpId,
    userID: new TextEncoder().encode(user.id),
    userName: user.name,
    userDisplayName: user.displayName ?? user.name,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

/** The passkey to store, once the attestation holds for this RP, an allowed origin and the challenge. */
export async function verifyRegistration(
  cfg: PasskeyConfig,
  credential: unknown,
  expectedChallenge: string,
): Promise<StoredPasskey> {
  const response = parse(registrationResponseSchema, credential) as RegistrationResponseJSON;
  const { verifyRegistrationResponse } = await webauthn();
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeIs(expectedChallenge),
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    info = result.verified ? result.registrationInfo : undefined;
  } catch (err) {
    throw invalid('credential', reasonOf(err));
  }
  if (!info) throw invalid('credential', 'The attestation could not be verified');
  const refused = await keyRefusal(info.credential.publicKey);
  if (refused) throw invalid('credential', refused);
  const known = (response.response.transports ?? []).filter((t): t is (typeof TRANSPORTS)[number] =>
    (TRANSPORTS as readonly string[]).includes(t),
  );
  return {
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    ...(known.length ? { transports: known } : {}),
  };
}

export async function authenticationOptions(
  cfg: PasskeyConfig,
  allow: StoredPasskey[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: cfg.rpId,
    allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: p.transports })),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

/**
 * The assertion's counter, once it is this passkey's, signed by its key over this challenge, for this
 * RP and an allowed origin, with user verification, and (where either counter is not 0) a counter
 * above the stored one. The caller stores `newCounter`.
 */
export async function verifyAuthentication(
  cfg: PasskeyConfig,
  credential: unknown,
  expectedChallenge: string,
  passkey: StoredPasskey,
): Promise<{ newCounter: number }> {
  const response = parse(authenticationResponseSchema, credential) as AuthenticationResponseJSON;
  if (!sameText(response.id, passkey.credentialId))
    throw invalid('credential.id', "Not this factor's passkey");
  // A key stored before the key rule existed proves nothing either.
  const refused = await keyRefusal(new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')));
  if (refused) throw invalid('credential', refused);
  const { verifyAuthenticationResponse } = await webauthn();
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeIs(expectedChallenge),
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as (typeof TRANSPORTS)[number][] | undefined,
      },
    });
  } catch (err) {
    throw invalid('credential', reasonOf(err));
  }
  if (!verified.verified) throw invalid('credential', 'The signature is not valid');
  return { newCounter: verified.authenticationInfo.newCounter };
}
