// Push factors' keys (with `jose`): the device app holds an EC P-256 key; the server keeps its public
// JWK. The app authenticates each call with an ES256 JWT (`kid` = `sub` = its device id, short-lived),
// and answers a challenge with a compact JWS of its decision and the number the user typed (number
// matching). No I/O here: the caller finds the key by the token's `kid` and stores each decision's
// replay key so that no decision counts twice.
import type { JWK } from 'jose';
import { createHash, createPublicKey, randomInt } from 'node:crypto';
import * as v from 'valibot';
import { Invalid, Unauthenticated } from '../domain/errors.ts';
import { object, safeParse } from '../domain/schema.ts';

/** jose, loaded on the first signature check (the routes that only enrol or start a push need none). */
const jose = () => import('jose');

/** How far ahead a device JWT's `exp` may be. */
export const DEVICE_TOKEN_MAX_SECONDS = 5 * 60;
/** How long after its `iat` a decision may be used. */
export const DECISION_MAX_SECONDS = 60;
/** A device's clock may be this far off the server's. */
export const CLOCK_SKEW_SECONDS = 30;
/** A device JWT or a decision JWS is a few hundred characters; longer is not one. */
const MAX_TOKEN_LENGTH = 4096;

const coordinate = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'Must be a P-256 coordinate: 32 bytes, base64url'),
);

/** A device's public key: an EC P-256 JWK (other members, such as `kid` or `key_ops`, are dropped). */
export const deviceKeySchema = object({
  kty: v.literal('EC'),
  crv: v.literal('P-256'),
  x: coordinate,
  y: coordinate,
});

/** A device's public key as stored: only the members of an EC P-256 point. */
export type DeviceKey = { kty: 'EC'; crv: 'P-256'; x: string; y: string };

const invalidKey = (field: string, message: string) =>
  new Invalid('One or more fields are invalid', { fields: [{ field, message }] });

/** The public key to store: an EC P-256 point on the curve, never a private key. */
export function parseDeviceKey(jwk: unknown): DeviceKey {
  if (jwk && typeof jwk === 'object' && Object.hasOwn(jwk, 'd'))
    throw invalidKey('public_key.d', 'Send the public key only: never the private key');
  const result = safeParse(deviceKeySchema, jwk);
  if (!result.success) {
    const fields = result.issues.map((issue) => ({
      field: ['public_key', ...(issue.path ?? []).map((p) => String(p.key))].join('.'),
      message: issue.message,
    }));
    throw new Invalid('One or more fields are invalid', { fields });
  }
  const key: DeviceKey = { kty: 'EC', crv: 'P-256', x: result.output.x, y: result.output.y };
  try {
    createPublicKey({ key, format: 'jwk' });
  } catch {
    throw invalidKey('public_key', 'Not a point on the P-256 curve');
  }
  return key;
}

const refused = (message: string) => new Unauthenticated(message);

const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;
/** A compact JWS's protected header, unverified (jose's decodeProtectedHeader, without loading jose). */
function headerOf(token: string): Record<string, unknown> {
  if (!COMPACT.test(token)) throw new Error('not a compact JWS');
  const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw new Error('not a header');
  return header;
}

/** The device id a token claims (its unverified `kid`), to find the key that must have signed it. */
export function readDeviceTokenKid(jwt: string): string {
  if (typeof jwt !== 'string' || jwt.length > MAX_TOKEN_LENGTH)
    throw refused('The token is not a device JWT');
  let kid: unknown;
  try {
    kid = headerOf(jwt).kid;
  } catch {
    throw refused('The token is not a device JWT');
  }
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 100)
    throw refused('The device JWT names no device (header kid)');
  return kid;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * A device JWT signed by this device's key: ES256, `kid` and `sub` the device id, an `exp` not past
 * and at most 5 minutes ahead. Anything else is Unauthenticated (401).
 */
export async function verifyDeviceToken(jwt: string, key: JWK, deviceId: string, now: Date): Promise<void> {
  if (readDeviceTokenKid(jwt) !== deviceId) throw refused('The device JWT is not of this device');
  const { importJWK, jwtVerify } = await jose();
  let exp: number | undefined;
  try {
    const verified = await jwtVerify(jwt, await importJWK(key, 'ES256'), {
      algorithms: ['ES256'],
      subject: deviceId,
      requiredClaims: ['exp'],
      currentDate: now,
      clockTolerance: CLOCK_SKEW_SECONDS,
    });
    exp = verified.payload.exp;
  } catch {
    throw refused('The device JWT is not valid: signature, subject or expiry');
  }
  if (exp === undefined || exp > seconds(now) + DEVICE_TOKEN_MAX_SECONDS + CLOCK_SKEW_SECONDS)
    throw refused(`The device JWT must expire within ${DEVICE_TOKEN_MAX_SECONDS} seconds`);
}

const decisionPayload = object({
  sub: v.string(),
  iat: v.pipe(v.number(), v.integer()),
  exp: v.pipe(v.number(), v.integer()),
  decision: v.picklist(['approve', 'deny']),
  // What the user typed: any number (a wrong one is a denial, not a malformed decision).
  number: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999_999))),
});

export interface Decision {
  decision: 'approve' | 'deny';
  /** The number the user typed; null when the decision carries none (a denial may not). */
  number: number | null;
  /** Identifies this decision (its signed header and payload), for the caller to refuse a replay. */
  replayKey: string;
}

/**
 * A decision signed by this device's key for this verification: compact JWS, ES256, `kid` the device
 * id; payload `{sub: verification id, iat, exp (not past, at most 60 s after iat), decision, number}`.
 * An approval must carry the number. Anything else is Unauthenticated (401).
 */
export async function verifyDecision(
  jws: string,
  key: JWK,
  deviceId: string,
  verificationId: string,
  now: Date,
): Promise<Decision> {
  if (readDeviceTokenKid(jws) !== deviceId) throw refused('The decision is not signed by this device');
  const { compactVerify, importJWK } = await jose();
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, await importJWK(key, 'ES256'), { algorithms: ['ES256'] }));
  } catch {
    throw refused("The decision's signature is not valid");
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw refused('The decision is not JSON');
  }
  const parsed = safeParse(decisionPayload, claims);
  if (!parsed.success) throw refused('The decision is malformed: sub, iat, exp, decision and number');
  const d = parsed.output;
  const t = seconds(now);
  if (d.sub !== verificationId) throw refused('The decision is for another verification');
  if (d.exp <= d.iat || d.exp - d.iat > DECISION_MAX_SECONDS)
    throw refused(`A decision must expire within ${DECISION_MAX_SECONDS} seconds of its iat`);
  if (d.exp + CLOCK_SKEW_SECONDS <= t) throw refused('The decision has expired');
  if (d.iat > t + CLOCK_SKEW_SECONDS) throw refused('The decision is issued in the future');
  if (d.decision === 'approve' && d.number === undefined)
    throw refused('An approval carries the number the user typed');
  // The signing input (header.payload), not the signature: an ECDSA signature can be re-encoded
  // (s → n − s) into another valid one over the same bytes; the signed bytes cannot change.
  const signingInput = jws.slice(0, jws.lastIndexOf('.'));
  return {
    decision: d.decision,
    number: d.number ?? null,
    replayKey: createHash('sha256').update(signingInput).digest('base64url'),
  };
}

/** The number the caller shows the user and the user types on the device: 10 to 99. */
export const newMatchNumber = () => randomInt(10, 100);
