// Idempotency-Key (Stripe semantics), per caller: the first request reserves the key (a
// conditional put, state in_progress); the operation completes it in the transaction of its own
// writes, storing the response for 24 hours; a retry with the same request gets that response
// again; another request under the key, or one while the first is in flight, is refused (409).
// A request that fails releases its key, so it can be retried.
import { randomUUID } from 'node:crypto';
import { seconds, type Clock } from '../domain/clock.ts';
import { KeyInUse } from '../domain/errors.ts';
import { sha256 } from './crypto.ts';
import type { Completion, IdempotencyStore, StoredResponse } from './ports.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface Reservation {
  /** The write that stores `response` under the key, for the operation's transaction. */
  completion(response: StoredResponse): Completion;
  release(): Promise<void>;
}

/** Sorted keys, so the same JSON body always has the same fingerprint. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
};

/** What "the same request" means: method, path and body. */
export const requestFingerprint = (method: string, path: string, body: unknown) => sha256(`${method} ${path}\n${canonical(body)}`);

export class IdempotencyKeys {
  constructor(private readonly store: IdempotencyStore, private readonly clock: Clock) {}

  async reserve(userId: string, key: string, fingerprint: string): Promise<{ replay: StoredResponse } | { reservation: Reservation }> {
    const keyHash = sha256(key);
    const leaseId = randomUUID();
    const held = await this.store.reserveIdempotencyKey(userId, keyHash, fingerprint, leaseId, seconds(this.clock));
    if (!held) {
      return {
        reservation: {
          completion: (response) => ({ userId, keyHash, leaseId, response }),
          release: () => this.store.releaseIdempotencyKey(userId, keyHash, leaseId),
        },
      };
    }
    if (held.fingerprint !== fingerprint) throw new KeyInUse('This Idempotency-Key was already used for a different request');
    if (held.state === 'in_progress' || !held.response) {
      throw new KeyInUse('A request with this Idempotency-Key is still in progress; retry later');
    }
    return { replay: held.response };
  }
}
