// Resource ids. A transfer id starts with its creation second (base 36, 7 characters), so ids
// sort in (created, id) order and a created-range is an id range; 16 random characters follow.
// Factor ids start with their creation millisecond, so a user's factors list oldest first.
import { createHash, randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const random = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(36)]).join('');

const TIME_WIDTH = 7;
/** The last second a transfer id can carry (7 base-36 digits). */
export const MAX_TRANSFER_SECONDS = 36 ** TIME_WIDTH - 1;
export const TRANSFER_ID = /^tr_[0-9a-z]{23}$/;
export const DEVICE_ID = /^dev_[0-9a-z]{20}$/;
export const VERIFICATION_ID = /^ver_[0-9a-z]{20}$/;

/** The smallest transfer id of a second: every transfer created in that second sorts at or after it. */
export const transferIdFloor = (createdSeconds: number) =>
  `tr_${Math.max(0, createdSeconds).toString(36).padStart(TIME_WIDTH, '0')}`;
/** Sorts after every transfer id created in that second. */
export const transferIdCeiling = (createdSeconds: number) => `${transferIdFloor(createdSeconds)}~`;

export const newTransferId = (createdSeconds: number) => `${transferIdFloor(createdSeconds)}${random(16)}`;
/**
 * The id of the transfer created under an Idempotency-Key: from the key's origin (its first
 * attempt's seed and second), so every attempt under the key names the same transfer.
 */
export const transferIdOf = (origin: { seed: string; startedAt: number }) => {
  const digest = createHash('sha256').update(origin.seed).digest();
  const tail = Array.from(digest.subarray(0, 16), (b) => ALPHABET[b % 36]).join('');
  return `${transferIdFloor(origin.startedAt)}${tail}`;
};
export const newDeviceId = (createdMs: number) =>
  `dev_${createdMs.toString(36).padStart(9, '0')}${random(11)}`;
export const newVerificationId = () => `ver_${random(20)}`;
