// In-memory adapter of enrolment (unit tests): the same contract as dynamo-enrolment.ts, over the
// tables the other in-memory adapters share (factors, step-ups, outbox, limit counters).
import type { LimitSlot } from '../limits.ts';
import { isActive, MAX_FACTORS, type Device } from '../model.ts';
import type {
  ActivationWrites,
  EnrolmentStore,
  EnrolmentWrites,
  PushDevice,
  PushTicket,
  StepUp,
} from '../ports.ts';
import { lost } from './lost.ts';
import { MemoryFactorStore } from './memory-factors.ts';
import { at, copy, type Check, type MemoryBankTables } from './memory-tables.ts';

/** A factor that still holds one of the user's slots: active, or pending and not expired. */
const holdsSlot = (d: Device, now: number) => isActive(d) || (d.pendingUntil ?? 0) > now;

export class MemoryEnrolmentStore implements EnrolmentStore {
  readonly tickets = new Map<string, PushTicket>();
  readonly pushDevices = new Map<string, PushDevice>();
  readonly recovery = new Map<string, Set<string>>();
  private readonly factors: MemoryFactorStore;

  constructor(private readonly tables: MemoryBankTables) {
    this.factors = new MemoryFactorStore(tables);
  }

  listDevices = (userId: string) => this.factors.listDevices(userId);
  getDevice = (userId: string, deviceId: string) => this.factors.getDevice(userId, deviceId);
  takeLimitSlot = (slot: LimitSlot, now: number) => this.tables.takeLimitSlot(slot, now);
  releaseLimitSlot = async (slot: LimitSlot) => this.tables.count(slot, -1);

  async enrollDevice(d: Device, opts: EnrolmentWrites): Promise<void> {
    const { tables } = this;
    const slots: Check = () => {
      const held = [...tables.devices.values()].filter(
        (x) => x.userId === d.userId && holdsSlot(x, d.created),
      );
      return held.length >= MAX_FACTORS ? lost.factors() : undefined;
    };
    const checks: Check[] = [
      ...(opts.stepUp ? [tables.stepUpCheck(opts.stepUp)] : []),
      () => (tables.devices.has(at(d.userId, d.id)) ? lost.state() : undefined),
      slots,
      tables.completionCheck(opts.completion),
    ];
    tables.commit(checks, () => {
      if (opts.stepUp) tables.consumeStepUp(opts.stepUp);
      tables.devices.set(at(d.userId, d.id), copy(d));
      const o = opts.outbox;
      if (o)
        tables.outbox.set(at(o.userId, String(o.sent * 1000).padStart(15, '0'), o.verificationId), copy(o));
      if (opts.ticket) this.tickets.set(opts.ticket.ticketHash, copy(opts.ticket));
      tables.complete(opts.completion);
    });
  }

  async activateDevice(d: Device, changes: Partial<Device>, opts: ActivationWrites): Promise<void> {
    const { tables } = this;
    const stored = tables.devices.get(at(d.userId, d.id));
    const ticket = opts.ticketHash ? this.tickets.get(opts.ticketHash) : undefined;
    const checks: Check[] = [
      () =>
        stored && stored.status === 'pending_activation' && (stored.pendingUntil ?? 0) > opts.now
          ? undefined
          : lost.state(),
      ...(opts.stepUp ? [tables.stepUpCheck(opts.stepUp)] : []),
      () => (opts.recoveryHashes && this.recovery.has(d.userId) ? lost.state() : undefined),
      () => (!opts.ticketHash || (ticket && ticket.expires_at > opts.now) ? undefined : lost.token()),
      // The first activation's discards: each still pending and unexpired (as in dynamo-enrolment.ts).
      ...(opts.discard ?? []).map(
        (x): Check =>
          () => {
            const other = tables.devices.get(at(d.userId, x.id));
            return other && !isActive(other) && (other.pendingUntil ?? 0) > opts.now
              ? undefined
              : lost.state();
          },
      ),
    ];
    tables.commit(checks, () => {
      Object.assign(stored!, copy(changes), { status: 'active' });
      for (const field of ['pendingUntil', 'activationHash', 'sealedChallenge', 'enrolledWithoutStepUp'])
        delete (stored as unknown as Record<string, unknown>)[field];
      if (opts.stepUp) tables.consumeStepUp(opts.stepUp);
      if (opts.recoveryHashes) this.recovery.set(d.userId, new Set(opts.recoveryHashes));
      if (opts.ticketHash) this.tickets.delete(opts.ticketHash);
      if (opts.push) this.pushDevices.set(opts.push.deviceId, copy(opts.push));
      tables.count(opts.release, -1);
      for (const x of opts.discard ?? []) tables.devices.delete(at(d.userId, x.id));
    });
  }

  async getTicket(ticketHash: string): Promise<PushTicket | undefined> {
    const t = this.tickets.get(ticketHash);
    return t && copy(t);
  }

  async hasRecoveryCodes(userId: string): Promise<boolean> {
    return this.recovery.has(userId);
  }

  async replaceRecoveryCodes(userId: string, hashes: string[], stepUp: StepUp): Promise<void> {
    this.tables.commit([this.tables.stepUpCheck(stepUp)], () => {
      this.tables.consumeStepUp(stepUp);
      this.recovery.set(userId, new Set(hashes));
    });
  }
}
