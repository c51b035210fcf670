// The state the in-memory Bank adapters share, so a write that spans aggregates (a transfer with
// its step-up and its Idempotency-Key) is all-or-nothing as in DynamoDB. Values are copied in and
// out, as a table would.
import type { Device, MfaTokenRecord, OutboxEntry, TransferRecord, Verification } from '../model.ts';
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
}
