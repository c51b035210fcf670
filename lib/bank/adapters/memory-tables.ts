// The state the in-memory Bank adapters share, so a write that spans aggregates (a transfer with
// its step-up and its Idempotency-Key) is all-or-nothing as in DynamoDB. Values are copied in and
// out, as a table would.
import type { Device, MfaTokenRecord, OutboxEntry, TransferRecord, Verification } from '../model.ts';
import { limitError, retryAfter, rolled, type LimitSlot, type LimitState } from '../limits.ts';
import type { Completion, Origin, StepUp, StoredResponse } from '../ports.ts';
import { lost } from './lost.ts';

export interface KeyRecord {
  state: 'in_progress' | 'completed' | 'released';
  fingerprint: string;
  leaseId: string;
  leaseUntil?: number;
  ttl: number;
  response?: StoredResponse;
  origin?: Origin;
}

/** A condition of a write: undefined when it holds, else the error of the lost write. */
export type Check = () => Error | undefined;

export const copy = <T>(value: T): T => structuredClone(value);
export const at = (...parts: string[]): string => parts.join('\u0000');

export class MemoryBankTables {
  readonly transfers = new Map<string, TransferRecord>();
  readonly devices = new Map<string, Device>();
  readonly verifications = new Map<string, Verification>();
  readonly tokens = new Map<string, MfaTokenRecord>();
  readonly outbox = new Map<string, OutboxEntry>();
  /** The user's current pending push verification id. */
  readonly pushPending = new Map<string, string>();
  readonly keys = new Map<string, KeyRecord>();
  /** MFA limit counters (lib/bank/limits.ts), by limit and subject. */
  readonly limits = new Map<string, LimitState>();

  /** Applies `apply` only if every check holds; else throws the first failed check's error. */
  commit(checks: Check[], apply: () => void): void {
    for (const check of checks) {
      const error = check();
      if (error) throw error;
    }
    apply();
  }

  stepUpCheck(s: StepUp): Check {
    return () => {
      const v = this.verifications.get(at(s.userId, s.verificationId));
      const usable =
        v && v.status === 'approved' && (v.approvedAt ?? -1) >= s.approvedSince && v.consumedAt === null;
      return usable ? undefined : lost.stepUp();
    };
  }

  consumeStepUp(s: StepUp): void {
    const v = this.verifications.get(at(s.userId, s.verificationId))!;
    v.consumedAt = s.now;
  }

  completionCheck(c: Completion | undefined): Check {
    return () => {
      if (!c) return undefined;
      const r = this.keys.get(at(c.userId, c.keyHash));
      return r && r.state === 'in_progress' && r.leaseId === c.leaseId ? undefined : lost.key();
    };
  }

  complete(c: Completion | undefined): void {
    if (!c) return;
    const r = this.keys.get(at(c.userId, c.keyHash))!;
    Object.assign(r, { state: 'completed', response: copy(c.response), leaseUntil: undefined });
  }

  /** A limit's count admits one more (the counter moved to this window), or the limit's error. */
  limitCheck(slot: LimitSlot | undefined, now: number): Check {
    return () => {
      if (!slot) return undefined;
      const key = at(slot.userId, slot.name, slot.subject);
      const state = this.limits.get(key);
      const current = state?.window === slot.window ? state : rolled(slot, state);
      if (current.count >= Math.min(current.cap, slot.max))
        return limitError(slot, retryAfter(slot, current, now));
      this.limits.set(key, current);
      return undefined;
    };
  }

  count(slot: LimitSlot | undefined, by: number): void {
    const state = slot && this.limits.get(at(slot.userId, slot.name, slot.subject));
    if (state) state.count += by;
  }

  async takeLimitSlot(slot: LimitSlot, now: number): Promise<number> {
    this.commit([this.limitCheck(slot, now)], () => this.count(slot, 1));
    const state = this.limits.get(at(slot.userId, slot.name, slot.subject))!;
    return Math.max(0, state.cap - state.count);
  }

  async limitReached(slot: LimitSlot, now: number): Promise<number | undefined> {
    const state = this.limits.get(at(slot.userId, slot.name, slot.subject));
    const current = state?.window === slot.window ? state : rolled(slot, state);
    return current.count >= Math.min(current.cap, slot.max) ? retryAfter(slot, current, now) : undefined;
  }
}
