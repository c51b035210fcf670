// Randomness as a port: ids and secrets come from an Ids source; the system's is crypto-strong,
// the sequential one (tests) is predictable.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export interface Ids {
  uuid(): string;
  bytes(n: number): Buffer;
  /** An integer in [0, max). */
  int(max: number): number;
}

export const systemIds: Ids = {
  uuid: () => randomUUID(),
  bytes: (n) => randomBytes(n),
  int: (max) => randomInt(max),
};

/** Deterministic ids for tests: counters, not randomness. */
export const sequentialIds = (start = 1): Ids => {
  let n = start;
  const next = () => n++;
  return {
    uuid: () => `00000000-0000-4000-8000-${next().toString(16).padStart(12, '0')}`,
    bytes: (size) => {
      const b = Buffer.alloc(Math.max(size, 6));
      b.writeUIntBE(next(), 0, 6);
      return b.subarray(0, size);
    },
    int: (max) => next() % max,
  };
};
