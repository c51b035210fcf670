// Secrets at rest: OTP secrets are sealed (lib/domain/seal.ts) under the MFA encryption key, given;
// sms/voice/email codes are kept as an HMAC under the same key (a 6-digit code's plain hash could
// be brute-forced); mfa_tokens and idempotency keys as SHA-256. Comparisons are constant-time.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const derive = (key: string) => createHash('sha256').update(key).digest();

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A code bound to its verification, so a stored hash says nothing about other verifications. */
export const hashCode = (key: string, verificationId: string, code: string) =>
  createHmac('sha256', derive(key)).update(`${verificationId}:${code}`).digest('hex');

export const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const newCode = () => String(randomInt(1_000_000)).padStart(6, '0');
export const newMfaToken = () => `mfa_${randomBytes(32).toString('base64url')}`;

/** Where a code goes, as a keyed hash (a phone number's plain hash could be brute-forced). */
export const destinationHash = (key: string, address: string) =>
  createHmac('sha256', derive(key)).update(`destination:${address.toLowerCase()}`).digest('hex');
