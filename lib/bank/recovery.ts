// Recovery codes: ten single-use codes, shown once, stored as SHA-256 (60 random bits each, so a
// plain hash is safe to keep; lookups are by set membership, not by comparison).
import { randomBytes } from 'node:crypto';
import { sha256 } from './crypto.ts';
import { RECOVERY_CODE_COUNT } from './model.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 12 base32 characters in groups of four: `k3vq-7mzp-xa2d`. */
const newRecoveryCode = () => {
  const chars = Array.from(randomBytes(12), (b) => ALPHABET[b % 32]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
};

export const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** The stored form of a recovery code: case and dashes do not matter to the user. */
export const recoveryHash = (code: string) => sha256(code.toLowerCase().replaceAll('-', ''));
