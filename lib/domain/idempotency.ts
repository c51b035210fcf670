// Idempotency-Key (Stripe semantics), per caller, shared by the APIs that take one (Bank creates
// and updates, Notes creates): the first request reserves the key (a conditional put, state
// in_progress); the operation completes it in the transaction of its own writes, storing the
// response for 24 hours; a retry with the same request gets that response again, even when the
// first answer was lost (a timeout, a 503) after the write committed; another request under the
// key, or one while the first is in flight, is refused (409). A request that fails releases its
// key, so it can be retried. Each API's store implements IdempotencyStore on its own key space.
import { createHash, randomUUID } from 'node:crypto';
import { seconds, type Clock } from './clock.ts';
import { KeyInUse } from './errors.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** A reservation whose request never finished is free again after this. */
export const IDEMPOTENCY_LEASE_SECONDS = 30;
/** How long a completed key replays its response. */
export const IDEMPOTENCY_RETENTION_SECONDS = 86_400;

/** A response stored under an Idempotency-Key and replayed for retries. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Completes a reserved Idempotency-Key in the same transaction as the operation's own writes. */
export interface Completion {
  userId: string;
  keyHash: string;
  leaseId: string;
  response: StoredResponse;
}

/**
 * Where a key's first attempt started: a random seed and the second it was reserved. A retry that
 * takes over an abandoned reservation gets the same origin, so a resource whose id derives from it
 * (a Bank transfer) is found, not created twice, when the first attempt wrote it but died before
 * completing the key.
 */
export interface Origin {
  seed: string;
  startedAt: number;
}

export interface IdempotencyRecord {
  state: 'in_progress' | 'completed';
  fingerprint: string;
  response?: StoredResponse;
}

export interface IdempotencyStore {
  /**
   * Reserves a key: undefined when reserved for this caller afresh (its origin: the lease id, now),
   * `{ origin }` when it took over an abandoned reservation (the first attempt's origin), else the
   * record that holds it.
   */
  reserveIdempotencyKey(
    userId: string,
    keyHash: string,
    fingerprint: string,
    leaseId: string,
    now: number,
  ): Promise<IdempotencyRecord | { origin: Origin } | undefined>;
  /** Frees a key this lease still holds (no error when it does not). */
  releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void>;
}

export interface Reservation {
  /** The origin of the key's first attempt (this one's, unless it took over an abandoned one). */
  origin: Origin;
  /** The write that stores `response` under the key, for the operation's transaction. */
  completion(response: StoredResponse): Completion;
  release(): Promise<void>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Sorted keys, so the same JSON body always has the same fingerprint. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
};

/** What "the same request" means: method, path and body. */
export const requestFingerprint = (method: string, path: string, body: unknown) =>
  sha256(`${method} ${path}\n${canonical(body)}`);

export class IdempotencyKeys {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  async reserve(
    userId: string,
    key: string,
    fingerprint: string,
  ): Promise<{ replay: StoredResponse } | { reservation: Reservation }> {
    const keyHash = sha256(key);
    const leaseId = randomUUID();
    const now = seconds(this.clock);
    const held = await this.store.reserveIdempotencyKey(userId, keyHash, fingerprint, leaseId, now);
    if (!held || 'origin' in held) {
      return {
        reservation: {
          origin: held?.origin ?? { seed: leaseId, startedAt: now },
          completion: (response) => ({ userId, keyHash, leaseId, response }),
          release: () => this.store.releaseIdempotencyKey(userId, keyHash, leaseId),
        },
      };
    }
    if (held.fingerprint !== fingerprint)
      throw new KeyInUse('This Idempotency-Key was already used for a different request');
    if (held.state === 'in_progress' || !held.response) {
      throw new KeyInUse('A request with this Idempotency-Key is still in progress; retry later');
    }
    return { replay: held.response };
  }
}
