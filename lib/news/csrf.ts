// Internal anti-forgery token: <nonce>.<expiry>.<mac>, all URL-safe. nonce = 16 random bytes
// (base64url), expiry = Unix seconds (decimal), mac = base64url(HMAC-SHA256(secret, "nonce.expiry")).
// Verifiable with the secret alone (no database read). Lifetime CSRF_TOKEN_LIFETIME seconds.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_TOKEN_LIFETIME = 3600;

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

/** Constant-time equality of two strings of any lengths (compares SHA-256 digests). */
export const safeEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export function issueCsrfToken(secret: string, now = Date.now()): string {
  const payload = `${randomBytes(16).toString('base64url')}.${Math.floor(now / 1000) + CSRF_TOKEN_LIFETIME}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** True when the token was signed with `secret` and has not expired. */
export function verifyCsrfToken(token: string, secret: string, now = Date.now()): boolean {
  const m = /^([A-Za-z0-9_-]{22})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  if (!safeEqual(m[3], mac(secret, `${m[1]}.${m[2]}`))) return false;
  return Number(m[2]) > Math.floor(now / 1000);
}

export interface InternalHeaders {
  origin?: string;
  host?: string;
  key?: string;
  secFetchSite?: string;
  secFetchMode?: string;
}
export interface InternalConfig {
  edgeOrigin: string;
  apiHost: string;
  apiKey: string;
}

/** The request comes from the internal edge: exact Origin, Host and Key, and no browser fetch metadata. */
export function isInternalRequest(h: InternalHeaders, c: InternalConfig): boolean {
  if (h.secFetchSite !== undefined || h.secFetchMode !== undefined) return false;
  if (h.origin === undefined || h.host === undefined || h.key === undefined) return false;
  // Evaluate all three so the timing does not reveal which one differs.
  const checks = [
    safeEqual(h.origin, c.edgeOrigin),
    safeEqual(h.host, c.apiHost),
    safeEqual(h.key, c.apiKey),
  ];
  return checks.every(Boolean);
}
