// In-memory adapter of Idempotency-Keys (unit tests): the same contract as dynamo-idempotency.ts.
import type { IdempotencyRecord, IdempotencyStore, Origin } from '../ports.ts';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RETENTION_SECONDS } from '../model.ts';
import { at, copy, type MemoryBankTables } from './memory-tables.ts';

export class MemoryIdempotencyStore implements IdempotencyStore {
  constructor(private readonly tables: MemoryBankTables) {}

  async reserveIdempotencyKey(
    userId: string,
    keyHash: string,
    fingerprint: string,
    leaseId: string,
    now: number,
  ): Promise<IdempotencyRecord | { origin: Origin } | undefined> {
    const key = at(userId, keyHash);
    const held = this.tables.keys.get(key);
    const free =
      !held ||
      held.ttl < now ||
      held.state === 'released' ||
      (held.state === 'in_progress' && (held.leaseUntil ?? 0) < now);
    if (!free)
      return copy({
        state: held.state === 'completed' ? 'completed' : 'in_progress',
        fingerprint: held.fingerprint,
        ...(held.response ? { response: held.response } : {}),
      });
    // The same request after one that failed or died under the key hands its origin on, as in
    // lib/data/idempotency.ts.
    const earlier = held && held.ttl >= now && held.state !== 'completed' && held.fingerprint === fingerprint;
    const inherited = earlier ? held.origin : undefined;
    this.tables.keys.set(key, {
      state: 'in_progress',
      fingerprint,
      leaseId,
      leaseUntil: now + IDEMPOTENCY_LEASE_SECONDS,
      ttl: now + IDEMPOTENCY_RETENTION_SECONDS,
      origin: inherited ?? { seed: leaseId, startedAt: now },
    });
    return inherited ? { origin: inherited } : undefined;
  }

  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    const key = at(userId, keyHash);
    const held = this.tables.keys.get(key);
    if (held?.leaseId === leaseId && held.state === 'in_progress') {
      held.state = 'released';
      held.leaseUntil = undefined;
    }
  }
}
