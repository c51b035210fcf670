// The project's TOTP code path (lib/bank/totp.ts over otplib) against RFC 6238 Appendix B, its
// one-step window and replay bound; the at-rest encryption of OTP secrets.
import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../../lib/domain/seal.ts';
import { newTotpSecret, totpCode, totpUri, verifyTotp } from '../../lib/bank/totp.ts';

// RFC 6238 Appendix B, SHA-1 column: the seed is the ASCII string "12345678901234567890", 8 digits.
const RFC_SECRET = { ascii: '12345678901234567890' };
const VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  for (const [time, code] of VECTORS) {
    it(`RFC 6238 Appendix B, T=${time}: generates and verifies ${code}`, async () => {
      expect(await totpCode(RFC_SECRET, time, { digits: 8 })).toBe(code);
      expect(await verifyTotp(RFC_SECRET, code, time, { digits: 8 })).toBe(Math.floor(time / 30));
    });
  }

  it('accepts the current step and one either side, nothing further', async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015;
    const step = Math.floor(now / 30);
    for (const offset of [-1, 0, 1])
      expect(await verifyTotp(secret, await totpCode(secret, now + offset * 30), now)).toBe(step + offset);
    for (const offset of [-2, 2])
      expect(await verifyTotp(secret, await totpCode(secret, now + offset * 30), now)).toBeUndefined();
  });

  it('refuses a step at or before the last used one (replay)', async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015;
    const code = await totpCode(secret, now);
    const step = await verifyTotp(secret, code, now);
    expect(await verifyTotp(secret, code, now, { afterStep: step })).toBeUndefined();
  });

  it('secrets are sealed with AES-256-GCM; the URI carries the secret for authenticator apps', () => {
    const secret = newTotpSecret();
    const sealed = seal(secret, 'key');
    expect(sealed).not.toContain(secret);
    expect(seal(secret, 'key')).not.toBe(sealed);
    expect(unseal(sealed, 'key')).toBe(secret);
    expect(() => unseal(sealed, 'another key')).toThrow();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => unseal(tampered, 'key')).toThrow();
    expect(totpUri(secret, 'demo')).toMatch(new RegExp(`^otpauth://totp/.*secret=${secret}`));
  });
});
