// In-memory adapter of the factors (unit tests): the same contract as dynamo-factors.ts.
import {
  isActive,
  type Device,
  type MfaTokenRecord,
  type OutboxEntry,
  type Verification,
  type VerificationStatus,
} from '../model.ts';
import type { LimitSlot } from '../limits.ts';
import type { Approval, Completion, FactorStore, StepUp } from '../ports.ts';
import { lost } from './lost.ts';
import { at, copy, type Check, type MemoryBankTables } from './memory-tables.ts';

export class MemoryFactorStore implements FactorStore {
  constructor(private readonly tables: MemoryBankTables) {}

  async putDevice(d: Device): Promise<void> {
    const key = at(d.userId, d.id);
    this.tables.commit([() => (this.tables.devices.has(key) ? lost.state() : undefined)], () =>
      this.tables.devices.set(key, copy(d)),
    );
  }

  async getDevice(userId: string, deviceId: string): Promise<Device | undefined> {
    const d = this.tables.devices.get(at(userId, deviceId));
    return d && copy(d);
  }

  async listDevices(userId: string): Promise<Device[]> {
    return [...this.tables.devices.values()]
      .filter((d) => d.userId === userId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  async deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void> {
    const { tables } = this;
    const key = at(userId, deviceId);
    tables.commit(
      [
        tables.stepUpCheck(stepUp),
        () => {
          // A pending factor past its 10 minutes is gone already (as in dynamo-factors.ts).
          const d = tables.devices.get(key);
          return d && (isActive(d) || (d.pendingUntil ?? 0) > stepUp.now) ? undefined : lost.device();
        },
      ],
      () => {
        tables.consumeStepUp(stepUp);
        tables.devices.delete(key);
      },
    );
  }

  private limitCheck(slot: LimitSlot | undefined, now: number): Check {
    return this.tables.limitCheck(slot, now);
  }

  private count(slot: LimitSlot | undefined, by: number): void {
    this.tables.count(slot, by);
  }

  takeLimitSlot = (slot: LimitSlot, now: number) => this.tables.takeLimitSlot(slot, now);
  releaseLimitSlot = async (slot: LimitSlot) => this.tables.count(slot, -1);
  limitReached = async (slot: LimitSlot, now: number) => this.tables.limitReached(slot, now);

  async createVerification(
    v: Verification,
    opts: { outbox?: OutboxEntry; completion?: Completion; start?: LimitSlot; pushPending?: boolean },
  ): Promise<void> {
    const { tables } = this;
    const key = at(v.userId, v.id);
    const checks = [
      () => (tables.verifications.has(key) ? lost.state() : undefined),
      tables.completionCheck(opts.completion),
      this.limitCheck(opts.start, v.created),
    ];
    tables.commit(checks, () => {
      this.count(opts.start, 1);
      tables.verifications.set(key, copy(v));
      if (opts.pushPending) tables.pushPending.set(v.userId, v.id);
      const o = opts.outbox;
      if (o)
        tables.outbox.set(at(o.userId, String(o.sent * 1000).padStart(15, '0'), o.verificationId), copy(o));
      tables.complete(opts.completion);
    });
  }

  async getVerification(userId: string, verificationId: string, tokenHash?: string) {
    const v = this.tables.verifications.get(at(userId, verificationId));
    const t = tokenHash === undefined ? undefined : this.tables.tokens.get(tokenHash);
    return {
      verification: v && copy(v),
      currentPush: this.tables.pushPending.get(userId),
      ...(tokenHash === undefined ? {} : { token: t && copy(t) }),
    };
  }

  async recordFailure(v: Verification, attempts: number, status: VerificationStatus): Promise<void> {
    const stored = this.tables.verifications.get(at(v.userId, v.id));
    this.tables.commit(
      [() => (stored?.attempts === v.attempts && stored.status === 'pending' ? undefined : lost.state())],
      () => {
        Object.assign(stored!, { attempts, status });
      },
    );
  }

  async approve(v: Verification, a: Approval): Promise<void> {
    const { tables } = this;
    const stored = tables.verifications.get(at(v.userId, v.id));
    const device = tables.devices.get(at(v.userId, v.deviceId));
    const token = a.token && tables.tokens.get(a.token.tokenHash);
    const checks: Check[] = [
      () =>
        stored?.attempts === v.attempts && stored.status === 'pending' && stored.expires_at > a.now
          ? undefined
          : lost.state(),
      () => (v.pushKey && tables.pushPending.get(v.userId) !== v.id ? lost.superseded() : undefined),
      () => {
        if (!device) return lost.device();
        return a.step === undefined || device.lastStep === null || device.lastStep < a.step
          ? undefined
          : lost.replay();
      },
      () => (!a.token || (token && token.expires_at > a.now) ? undefined : lost.token()),
      tables.completionCheck(a.completion),
    ];
    tables.commit(checks, () => {
      Object.assign(stored!, { status: 'approved', approvedAt: a.now });
      Object.assign(device!, { last_used: a.now, ...(a.step === undefined ? {} : { lastStep: a.step }) });
      if (a.token?.consume) tables.tokens.delete(a.token.tokenHash);
      this.count(a.release, -1);
      tables.complete(a.completion);
    });
  }

  async putMfaToken(t: MfaTokenRecord, completion?: Completion): Promise<void> {
    const { tables } = this;
    tables.commit(
      [() => (tables.tokens.has(t.tokenHash) ? lost.state() : undefined), tables.completionCheck(completion)],
      () => {
        tables.tokens.set(t.tokenHash, copy(t));
        tables.complete(completion);
      },
    );
  }

  async listOutbox(userId: string, now: number): Promise<OutboxEntry[]> {
    return [...this.tables.outbox.entries()]
      .filter(([, o]) => o.userId === userId && o.expires_at > now)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, o]) => copy(o));
  }
}
