// A WebAuthn authenticator in Node, for tests that need passkey ceremonies without a browser: a real
// ES256 key pair per credential, attestation `none` CBOR-encoded as authenticators do, assertions
// signed over authenticatorData || SHA-256(clientDataJSON). The browser's part (clientDataJSON with
// type, challenge and origin) is played too. Every knob a test needs to be refused: the origin, the
// RP ID, the UV flag, the counter, a forged signature.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  publicJwk: { x: string; y: string };
  rpId: string;
  /** The authenticator's signature counter; 0 means it keeps none. */
  counter: number;
  userHandle: string;
}

export interface Ceremony {
  origin: string;
  /** Override the RP ID hashed into authenticatorData (default: the options' RP ID). */
  rpId?: string;
  /** The UV flag (default true). */
  userVerified?: boolean;
  /** Override the challenge the client saw. */
  challenge?: string;
  type?: string;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');
const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

const flags = (uv: boolean, attested: boolean) => 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);

function counterBytes(counter: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter);
  return b;
}

function es256Key() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x as string, 'base64url');
  const y = Buffer.from(jwk.y as string, 'base64url');
  // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(x)],
      [-3, new Uint8Array(y)],
    ]),
  );
  return { privateKey, jwk, cose };
}

function rs256Key(bits: number) {
  let n: Buffer;
  let e: Buffer;
  let privateKey: KeyObject;
  if (bits <= 4096) {
    const pair = generateKeyPairSync('rsa', { modulusLength: bits });
    privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    n = Buffer.from(jwk.n as string, 'base64url');
    e = Buffer.from(jwk.e as string, 'base64url');
  } else {
    privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    n = randomBytes(Math.ceil(bits / 8));
    const top = bits % 8 || 8;
    n[0] = ((n[0] as number) & ((1 << top) - 1)) | (1 << (top - 1));
    n[n.length - 1] = (n[n.length - 1] as number) | 1;
    e = Buffer.from([1, 0, 1]);
  }
  // COSE_Key: kty RSA (3), alg RS256 (-257), n, e
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 3],
      [3, -257],
      [-1, new Uint8Array(n)],
      [-2, new Uint8Array(e)],
    ]),
  );
  return { privateKey, jwk: { x: '', y: '' }, cose };
}

/** `navigator.credentials.create()` with an authenticator that counts from `counter` (0: none). */
export function createCredential(
  options: PublicKeyCredentialCreationOptionsJSON,
  ceremony: Ceremony,
  opts: {
    counter?: number;
    /**
     * An RS256 key of this modulus size instead of ES256: a real key pair up to 4096 bits, above
     * that a random modulus of that size (registration signs nothing, so only its size matters).
     */
    rsaModulusBits?: number;
    /** This credential id (base64url) instead of a random one: a client that sends a known id. */
    credentialId?: string;
  } = {},
): { response: RegistrationResponseJSON; credential: SoftCredential } {
  const rpId = ceremony.rpId ?? options.rp.id ?? new URL(ceremony.origin).hostname;
  const { privateKey, jwk, cose } =
    opts.rsaModulusBits === undefined ? es256Key() : rs256Key(opts.rsaModulusBits);
  const credId = opts.credentialId ? Buffer.from(opts.credentialId, 'base64url') : randomBytes(16);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credId.length);
  const counter = opts.counter ?? 0;
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([flags(ceremony.userVerified ?? true, true)]),
    counterBytes(counter),
    Buffer.alloc(16), // AAGUID
    idLength,
    credId,
    Buffer.from(cose),
  ]);
  const attestationObject = isoCBOR.encode(
    new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', new Uint8Array(authData)],
    ]),
  );
  const id = b64url(credId);
  const clientDataJSON = clientData(
    ceremony.type ?? 'webauthn.create',
    ceremony.challenge ?? options.challenge,
    ceremony.origin,
  );
  return {
    response: {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    },
    credential: {
      id,
      privateKey,
      publicJwk: { x: jwk.x as string, y: jwk.y as string },
      rpId,
      counter,
      userHandle: options.user.id,
    },
  };
}

/**
 * `navigator.credentials.get()`: the credential signs; its counter grows by one unless it keeps none
 * (or `counter` says which value to send). `forge` flips a byte of the signature.
 */
export function getAssertion(
  options: PublicKeyCredentialRequestOptionsJSON,
  credential: SoftCredential,
  ceremony: Ceremony,
  opts: { counter?: number; forge?: boolean } = {},
): AuthenticationResponseJSON {
  if (opts.counter !== undefined) credential.counter = opts.counter;
  else if (credential.counter > 0) credential.counter += 1;
  const authData = Buffer.concat([
    sha256(ceremony.rpId ?? credential.rpId),
    Buffer.from([flags(ceremony.userVerified ?? true, false)]),
    counterBytes(credential.counter),
  ]);
  const clientDataJSON = clientData(
    ceremony.type ?? 'webauthn.get',
    ceremony.challenge ?? options.challenge,
    ceremony.origin,
  );
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
  if (opts.forge) signature[signature.length - 1] ^= 0x01;
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: credential.userHandle,
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
