// The contract of the Bank's storage ports: every adapter (in memory, DynamoDB) passes this same
// suite (bank.memory.test.ts, bank.dynamo.test.ts). Each test works on fresh user ids.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BadInput, Conflict, KeyInUse, NotFound, StepUpRequired } from '../../lib/domain/errors.ts';
import { newDeviceId, newTransferId, newVerificationId, transferIdOf } from '../../lib/bank/ids.ts';
import type { Device, TransferRecord, Verification } from '../../lib/bank/model.ts';
import type {
  EnrolmentStore,
  FactorStore,
  IdempotencyStore,
  ListQuery,
  TransferStore,
} from '../../lib/bank/ports.ts';

export interface BankStores {
  transfers: TransferStore;
  factors: FactorStore;
  keys: IdempotencyStore;
  enrolment: EnrolmentStore;
}

const NOW = 1_800_000_000;
const user = () => `u-${randomUUID()}`;

const transfer = (userId: string, over: Partial<TransferRecord> = {}): TransferRecord => ({
  id: newTransferId(over.created ?? NOW),
  userId,
  amount: 100,
  currency: 'eur',
  destination: 'acct_x',
  description: null,
  metadata: {},
  created: NOW,
  updated: NOW,
  version: 1,
  ...over,
});
const device = (userId: string, over: Partial<Device> = {}, createdMs = NOW * 1000): Device => ({
  id: newDeviceId(createdMs),
  userId,
  kind: 'sms',
  name: 'phone',
  default: true,
  created: NOW,
  last_used: null,
  address: '+15551234567',
  sealedSecret: null,
  lastStep: null,
  ...over,
});
const verification = (userId: string, deviceId: string, over: Partial<Verification> = {}): Verification => ({
  id: newVerificationId(),
  userId,
  deviceId,
  kind: 'sms',
  status: 'pending',
  attempts: 0,
  created: NOW,
  expires_at: NOW + 600,
  codeHash: 'h',
  sealedSecret: null,
  approvedAt: null,
  consumedAt: null,
  ...over,
});
const list = (userId: string, over: Partial<ListQuery> = {}): ListQuery => ({
  userId,
  by: 'created',
  descending: false,
  limit: 10,
  created: {},
  amount: {},
  ...over,
});

export function bankContract(name: string, stores: () => BankStores): void {
  describe(`${name}: transfers`, () => {
    it('reads back a transfer as written', async () => {
      const { transfers } = stores();
      const t = transfer(user(), { metadata: { a: 'b' }, description: 'Rent' });
      await transfers.putTransfer(t, {});
      expect(await transfers.getTransfer(t.userId, t.id)).toEqual(t);
    });

    it('does not show a transfer to another user', async () => {
      const { transfers } = stores();
      const t = transfer(user());
      await transfers.putTransfer(t, {});
      expect(await transfers.getTransfer(user(), t.id)).toBeUndefined();
    });

    it('saves the next version and refuses a stale one with Conflict(version)', async () => {
      const { transfers } = stores();
      const t = transfer(user());
      await transfers.putTransfer(t, {});
      await transfers.saveTransfer({ ...t, description: 'v2', version: 2 });
      const stale = transfers.saveTransfer({ ...t, description: 'lost', version: 2 });
      await expect(stale).rejects.toMatchObject({ reason: 'version' });
      await expect(stale).rejects.toBeInstanceOf(Conflict);
      expect((await transfers.getTransfer(t.userId, t.id))?.description).toBe('v2');
    });

    it('lists by created and by amount, both directions, with cursors', async () => {
      const { transfers } = stores();
      const u = user();
      const ts = [300, 100, 200].map((amount, i) =>
        transfer(u, { amount, created: NOW + i, id: newTransferId(NOW + i) }),
      );
      for (const t of ts) await transfers.putTransfer(t, {});
      const ids = async (q: Partial<ListQuery>) =>
        (await transfers.listTransfers(list(u, q))).data.map((t) => t.amount);
      expect(await ids({})).toEqual([300, 100, 200]);
      expect(await ids({ descending: true })).toEqual([200, 100, 300]);
      expect(await ids({ by: 'amount' })).toEqual([100, 200, 300]);
      expect(await ids({ by: 'amount', after: ts[1].id })).toEqual([200, 300]);
      expect(await ids({ by: 'amount', before: ts[0].id })).toEqual([100, 200]);
    });

    it('pages with hasMore and filters by range, currency, destination and text', async () => {
      const { transfers } = stores();
      const u = user();
      await transfers.putTransfer(
        transfer(u, { amount: 5, currency: 'usd', description: 'Coffee beans' }),
        {},
      );
      await transfers.putTransfer(transfer(u, { amount: 50, destination: 'acct_rent' }), {});
      await transfers.putTransfer(transfer(u, { amount: 500, metadata: { note: 'Holiday' } }), {});
      expect(await transfers.listTransfers(list(u, { limit: 2 }))).toMatchObject({ hasMore: true });
      const amounts = async (q: Partial<ListQuery>) =>
        (await transfers.listTransfers(list(u, q))).data.map((t) => t.amount).sort();
      expect(await amounts({ amount: { gte: 10, lte: 100 } })).toEqual([50]);
      expect(await amounts({ currency: 'usd' })).toEqual([5]);
      expect(await amounts({ destination: 'acct_rent' })).toEqual([50]);
      expect(await amounts({ q: 'holiday' })).toEqual([500]);
      expect(await amounts({ q: 'coffee' })).toEqual([5]);
    });

    it('refuses an amount-order cursor naming no transfer of the user with BadInput(cursor)', async () => {
      const { transfers } = stores();
      const listing = transfers.listTransfers(list(user(), { by: 'amount', after: newTransferId(NOW) }));
      await expect(listing).rejects.toBeInstanceOf(BadInput);
    });
  });

  describe(`${name}: step-up and idempotency in one write`, () => {
    const approved = async (f: FactorStore, u: string) => {
      const d = device(u);
      await f.putDevice(d);
      const v = verification(u, d.id);
      await f.createVerification(v, {});
      await f.approve(v, { now: NOW });
      return v;
    };

    it('consumes a step-up once: a second write with it is StepUpRequired and writes nothing', async () => {
      const { transfers, factors } = stores();
      const u = user();
      const v = await approved(factors, u);
      const stepUp = { userId: u, verificationId: v.id, approvedSince: NOW - 300, now: NOW };
      await transfers.putTransfer(transfer(u), { stepUp });
      const second = transfer(u);
      await expect(transfers.putTransfer(second, { stepUp })).rejects.toBeInstanceOf(StepUpRequired);
      expect(await transfers.getTransfer(u, second.id)).toBeUndefined();
    });

    it('refuses a step-up approved before the window', async () => {
      const { transfers, factors } = stores();
      const u = user();
      const v = await approved(factors, u);
      const stepUp = { userId: u, verificationId: v.id, approvedSince: NOW + 1, now: NOW + 400 };
      await expect(transfers.putTransfer(transfer(u), { stepUp })).rejects.toBeInstanceOf(StepUpRequired);
    });

    it('reserves a key once; the holder completes it; a later reserve sees the stored response', async () => {
      const { transfers, keys } = stores();
      const u = user();
      expect(await keys.reserveIdempotencyKey(u, 'k1', 'fp', 'lease-1', NOW)).toBeUndefined();
      expect(await keys.reserveIdempotencyKey(u, 'k1', 'fp', 'lease-2', NOW)).toEqual({
        state: 'in_progress',
        fingerprint: 'fp',
      });
      const response = { status: 201, body: { ok: true } };
      await transfers.putTransfer(transfer(u), {
        complete: () => ({ userId: u, keyHash: 'k1', leaseId: 'lease-1', response }),
      });
      expect(await keys.reserveIdempotencyKey(u, 'k1', 'fp', 'lease-3', NOW)).toEqual({
        state: 'completed',
        fingerprint: 'fp',
        response,
      });
    });

    it('refuses a completion by a lease that does not hold the key (KeyInUse); the transfer stays for the holder', async () => {
      const { transfers, keys } = stores();
      const u = user();
      await keys.reserveIdempotencyKey(u, 'k2', 'fp', 'lease-1', NOW);
      const t = transfer(u);
      const complete = () => ({
        userId: u,
        keyHash: 'k2',
        leaseId: 'other',
        response: { status: 201, body: null },
      });
      await expect(transfers.putTransfer(t, { complete })).rejects.toBeInstanceOf(KeyInUse);
      // Written before the completion (no transaction): the key's holder derives the same id and finds it.
      expect(await transfers.getTransfer(u, t.id)).toEqual(t);
      expect(await keys.reserveIdempotencyKey(u, 'k2', 'fp', 'lease-2', NOW)).toEqual({
        state: 'in_progress',
        fingerprint: 'fp',
      });
    });

    it('a takeover of an abandoned key gets its first origin and finds the transfer that attempt wrote', async () => {
      const { transfers, keys } = stores();
      const u = user();
      expect(await keys.reserveIdempotencyKey(u, 'k4', 'fp', 'lease-1', NOW)).toBeUndefined();
      const first = { ...transfer(u), id: transferIdOf({ seed: 'lease-1', startedAt: NOW }) };
      await transfers.putTransfer(first, {}); // the first attempt dies after its put
      const taken = await keys.reserveIdempotencyKey(u, 'k4', 'fp', 'lease-2', NOW + 31);
      expect(taken).toEqual({ origin: { seed: 'lease-1', startedAt: NOW } });
      // The retry builds the same id from the origin; its put finds the first attempt's transfer.
      const retry = { ...first, description: 'not written', updated: NOW + 31 };
      const response = (t: TransferRecord) => ({
        status: 201,
        body: { id: t.id, description: t.description },
      });
      const stored = await transfers.putTransfer(retry, {
        complete: (t) => ({ userId: u, keyHash: 'k4', leaseId: 'lease-2', response: response(t) }),
      });
      expect(stored).toEqual(first);
      expect(await transfers.getTransfer(u, first.id)).toEqual(first);
      expect(await keys.reserveIdempotencyKey(u, 'k4', 'fp', 'lease-3', NOW + 32)).toEqual({
        state: 'completed',
        fingerprint: 'fp',
        response: response(first),
      });
      // A second takeover would still inherit the first origin (kept on the record).
      expect(await keys.reserveIdempotencyKey(u, 'k5', 'fp', 'lease-4', NOW)).toBeUndefined();
      expect(await keys.reserveIdempotencyKey(u, 'k5', 'fp', 'lease-5', NOW + 31)).toEqual({
        origin: { seed: 'lease-4', startedAt: NOW },
      });
      expect(await keys.reserveIdempotencyKey(u, 'k5', 'fp', 'lease-6', NOW + 62)).toEqual({
        origin: { seed: 'lease-4', startedAt: NOW },
      });
    });

    it('frees a released key; a lease that ran out may be taken over', async () => {
      const { keys } = stores();
      const u = user();
      await keys.reserveIdempotencyKey(u, 'k3', 'fp', 'lease-1', NOW);
      await keys.releaseIdempotencyKey(u, 'k3', 'lease-1');
      expect(await keys.reserveIdempotencyKey(u, 'k3', 'fp2', 'lease-2', NOW)).toBeUndefined();
      // lease-2 ran out unfinished: another request takes the key, with an origin of its own.
      expect(await keys.reserveIdempotencyKey(u, 'k3', 'fp3', 'lease-3', NOW + 31)).toBeUndefined();
      // lease-3 fails and releases: the same request again gets lease-3's origin.
      await keys.releaseIdempotencyKey(u, 'k3', 'lease-3');
      expect(await keys.reserveIdempotencyKey(u, 'k3', 'fp3', 'lease-4', NOW + 32)).toEqual({
        origin: { seed: 'lease-3', startedAt: NOW + 31 },
      });
    });
  });

  describe(`${name}: factors and verifications`, () => {
    it("lists a user's factors oldest first", async () => {
      const { factors } = stores();
      const u = user();
      const a = device(u, {}, NOW * 1000);
      const b = device(u, { kind: 'otp' }, NOW * 1000 + 1);
      await factors.putDevice(b);
      await factors.putDevice(a);
      expect((await factors.listDevices(u)).map((d) => d.id)).toEqual([a.id, b.id]);
    });

    it('deletes a factor only with a step-up; an unknown factor is NotFound', async () => {
      const { factors } = stores();
      const u = user();
      const d = device(u);
      await factors.putDevice(d);
      const v = verification(u, d.id);
      await factors.createVerification(v, {});
      const stepUp = { userId: u, verificationId: v.id, approvedSince: NOW - 300, now: NOW };
      await expect(factors.deleteDevice(u, d.id, stepUp)).rejects.toBeInstanceOf(StepUpRequired);
      await factors.approve(v, { now: NOW });
      await expect(factors.deleteDevice(u, newDeviceId(NOW * 1000), stepUp)).rejects.toBeInstanceOf(NotFound);
      expect(await factors.getDevice(u, d.id)).toBeDefined();
    });

    it('records a failure only on the verification as read (Conflict(state) otherwise)', async () => {
      const { factors } = stores();
      const u = user();
      const d = device(u);
      await factors.putDevice(d);
      const v = verification(u, d.id);
      await factors.createVerification(v, {});
      await factors.recordFailure(v, 1, 'pending');
      await expect(factors.recordFailure(v, 1, 'pending')).rejects.toMatchObject({ reason: 'state' });
      expect((await factors.getVerification(u, v.id)).verification?.attempts).toBe(1);
    });

    it('refuses a TOTP step that is not after the last one with Conflict(replay)', async () => {
      const { factors } = stores();
      const u = user();
      const d = device(u, { kind: 'otp' });
      await factors.putDevice(d);
      const first = verification(u, d.id, { kind: 'otp' });
      const second = verification(u, d.id, { kind: 'otp' });
      await factors.createVerification(first, {});
      await factors.createVerification(second, {});
      await factors.approve(first, { now: NOW, step: 7 });
      await expect(factors.approve(second, { now: NOW, step: 7 })).rejects.toMatchObject({
        reason: 'replay',
      });
    });

    it('uses a single-use mfa_token once (Conflict(token) after)', async () => {
      const { factors } = stores();
      const u = user();
      const d = device(u);
      await factors.putDevice(d);
      const tokenHash = `t-${randomUUID()}`;
      await factors.putMfaToken({
        tokenHash,
        userId: u,
        reusable: false,
        expires_at: NOW + 60,
        created: NOW,
      });
      const [a, b] = [verification(u, d.id), verification(u, d.id)];
      await factors.createVerification(a, {});
      await factors.createVerification(b, {});
      expect((await factors.getVerification(u, a.id, tokenHash)).token?.userId).toBe(u);
      await factors.approve(a, { now: NOW, token: { tokenHash, consume: true } });
      await expect(
        factors.approve(b, { now: NOW, token: { tokenHash, consume: true } }),
      ).rejects.toMatchObject({ reason: 'token' });
    });

    it('deletes the discarded pending factors with an activation, all or none (Conflict(state) if one is not pending)', async () => {
      const { enrolment } = stores();
      const u = user();
      const pending = (i: number, over: Partial<Device> = {}) =>
        device(
          u,
          {
            kind: 'otp',
            default: false,
            status: 'pending_activation',
            pendingUntil: NOW + 600,
            enrolledWithoutStepUp: true,
            ...over,
          },
          NOW * 1000 + i,
        );
      const [a, b, c, p] = [pending(1), pending(2), pending(3), pending(4, { kind: 'push' })];
      for (const d of [a, b, c, p]) await enrolment.enrollDevice(d, {});
      // One of the discards was activated meanwhile: nothing changes.
      await enrolment.activateDevice(c, {}, { now: NOW });
      await expect(
        enrolment.activateDevice(a, { default: true }, { now: NOW, discard: [b, c] }),
      ).rejects.toMatchObject({ kind: 'conflict', reason: 'state' });
      expect((await enrolment.getDevice(u, a.id))?.status).toBe('pending_activation');
      expect(await enrolment.getDevice(u, b.id)).toBeDefined();

      await enrolment.activateDevice(a, { default: true }, { now: NOW, discard: [b, p] });
      expect((await enrolment.listDevices(u)).map((d) => [d.id, d.status])).toEqual([
        [a.id, 'active'],
        [c.id, 'active'],
      ]);
    });

    it('keeps outbox entries until they expire, in sending order', async () => {
      const { factors } = stores();
      const u = user();
      const d = device(u);
      await factors.putDevice(d);
      const entry = (v: Verification, sent: number, code: string) => ({
        userId: u,
        verificationId: v.id,
        deviceId: d.id,
        channel: d.kind,
        to: d.address,
        code,
        sent,
        expires_at: sent + 600,
      });
      const [a, b] = [verification(u, d.id), verification(u, d.id)];
      await factors.createVerification(b, { outbox: entry(b, NOW + 1, '222222') });
      await factors.createVerification(a, { outbox: entry(a, NOW, '111111') });
      expect((await factors.listOutbox(u, NOW)).map((e) => e.code)).toEqual(['111111', '222222']);
      expect(await factors.listOutbox(u, NOW + 600)).toHaveLength(1);
    });
  });
}
