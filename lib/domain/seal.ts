// Sealing, the one symmetric encryption of secrets at rest every API shares (Bank's OTP secrets,
// passkey challenges, outbox codes and sealed responses; Notes' webhook secrets): AES-256-GCM under
// SHA-256(the key given), laid out as base64url(iv | tag | ciphertext). Opening something sealed
// under another key, or tampered with, throws.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const derive = (key: string) => createHash('sha256').update(key).digest();

/** base64url(iv | tag | ciphertext) */
export function seal(plain: string, key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(key), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

export function unseal(sealed: string, key: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', derive(key), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
