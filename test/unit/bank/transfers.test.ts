import { describe, expect, it } from 'vitest';
import { BadInput, Conflict, Invalid, NotFound, StepUpRequired } from '../../../lib/domain/errors.ts';
import { MemoryTransferStore } from '../../../lib/bank/adapters/memory-transfers.ts';
import { TransferService } from '../../../lib/bank/transfers.ts';
import { bank, newTransfer, STEP_UP_AMOUNT } from './fixture.ts';

/** Enrols an sms factor and approves a verification with the code from the outbox. */
async function approvedVerification(b: ReturnType<typeof bank>, userId: string): Promise<string> {
  const { device } = await b.mfa.enroll({ userId, kind: 'sms', phone: '+15551234567' });
  const v = await b.mfa.startVerification(userId, device.id);
  const [sent] = await b.mfa.outbox(userId);
  await b.mfa.verify(userId, v.id, { code: sent.code }, b.log);
  return v.id;
}

describe('TransferService', () => {
  it('creates a transfer stamped with the clock, without empty metadata values', async () => {
    const b = bank();
    const t = await b.transfers.create('u1', { ...newTransfer, metadata: { a: '1', gone: '' } }, {});
    expect(t).toMatchObject({
      ...newTransfer,
      metadata: { a: '1' },
      created: 1_800_000_000,
      updated: 1_800_000_000,
    });
  });

  it('reads back what it created', async () => {
    const b = bank();
    const t = await b.transfers.create('u1', newTransfer, {});
    expect(await b.transfers.get('u1', t.id)).toEqual(t);
  });

  it("treats another user's transfer as not found", async () => {
    const b = bank();
    const t = await b.transfers.create('u1', newTransfer, {});
    await expect(b.transfers.get('u2', t.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('treats a malformed id as not found without reading', async () => {
    await expect(bank().transfers.get('u1', 'not-an-id')).rejects.toBeInstanceOf(NotFound);
  });

  it('asks for a step-up at the threshold amount', async () => {
    const create = bank().transfers.create('u1', { ...newTransfer, amount: STEP_UP_AMOUNT }, {});
    await expect(create).rejects.toBeInstanceOf(StepUpRequired);
  });

  it('accepts a transfer at the threshold with an approved verification, once', async () => {
    const b = bank();
    const verificationId = await approvedVerification(b, 'u1');
    await b.transfers.create('u1', { ...newTransfer, amount: STEP_UP_AMOUNT }, { verificationId });
    const again = b.transfers.create('u1', { ...newTransfer, amount: STEP_UP_AMOUNT }, { verificationId });
    await expect(again).rejects.toBeInstanceOf(StepUpRequired);
  });

  it('refuses a step-up approved more than five minutes ago', async () => {
    const b = bank();
    const verificationId = await approvedVerification(b, 'u1');
    b.clock.advance(301_000);
    const create = b.transfers.create('u1', { ...newTransfer, amount: STEP_UP_AMOUNT }, { verificationId });
    await expect(create).rejects.toBeInstanceOf(StepUpRequired);
  });

  it('replace clears what is not sent', async () => {
    const b = bank();
    const t = await b.transfers.create(
      'u1',
      { ...newTransfer, description: 'Rent', metadata: { a: '1' } },
      {},
    );
    expect(await b.transfers.replace('u1', t.id, { metadata: { b: '2' } })).toMatchObject({
      description: null,
      metadata: { b: '2' },
    });
  });

  it('update merges metadata and removes keys set to ""', async () => {
    const b = bank();
    const t = await b.transfers.create(
      'u1',
      { ...newTransfer, description: 'Rent', metadata: { a: '1', b: '2' } },
      {},
    );
    const updated = await b.transfers.update('u1', t.id, { metadata: { b: '', c: '3' } });
    expect(updated).toMatchObject({ description: 'Rent', metadata: { a: '1', c: '3' } });
  });

  it('update with metadata null clears every key', async () => {
    const b = bank();
    const t = await b.transfers.create('u1', { ...newTransfer, metadata: { a: '1' } }, {});
    expect((await b.transfers.update('u1', t.id, { metadata: null })).metadata).toEqual({});
  });

  it('stamps an update with the time of the change', async () => {
    const b = bank();
    const t = await b.transfers.create('u1', newTransfer, {});
    b.clock.advance(5_000);
    expect((await b.transfers.update('u1', t.id, { description: 'x' })).updated).toBe(t.created + 5);
  });

  it('refuses a merge that would exceed 50 metadata keys', async () => {
    const b = bank();
    const many = (from: number) =>
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${from + i}`, 'v']));
    const t = await b.transfers.create('u1', { ...newTransfer, metadata: many(0) }, {});
    await expect(b.transfers.update('u1', t.id, { metadata: many(30) })).rejects.toBeInstanceOf(Invalid);
  });

  it('retries an update that lost a race, and gives up after three with Conflict', async () => {
    const b = bank();
    const t = await b.transfers.create('u1', newTransfer, {});
    const store = new MemoryTransferStore(b.tables);
    let saves = 0;
    store.saveTransfer = async () => {
      saves += 1;
      throw new Conflict('changed meanwhile', { reason: 'version' });
    };
    const racing = new TransferService(store, () => STEP_UP_AMOUNT, b.clock);
    await expect(racing.update('u1', t.id, { description: 'x' })).rejects.toBeInstanceOf(Conflict);
    expect(saves).toBe(3);
  });

  it('lists newest first by default, with a cursor to the next page', async () => {
    const b = bank();
    const made = [];
    for (let i = 0; i < 3; i += 1) {
      made.push(await b.transfers.create('u1', newTransfer, {}));
      b.clock.advance(1000);
    }
    const page = await b.transfers.list('u1', { limit: 2 });
    expect(page.data.map((t) => t.id)).toEqual([made[2].id, made[1].id]);
    expect(page).toMatchObject({ has_more: true, next: { starting_after: made[1].id } });
  });

  it('turns exclusive bounds into inclusive ones', async () => {
    const b = bank();
    for (const amount of [10, 11, 12]) await b.transfers.create('u1', { ...newTransfer, amount }, {});
    const page = await b.transfers.list('u1', { sort: 'amount', amount: { gt: 10, lt: 12 } });
    expect(page.data.map((t) => t.amount)).toEqual([11]);
  });

  it('names the cursor parameter that does not name a transfer of the caller', async () => {
    const b = bank();
    const t = await b.transfers.create('u2', newTransfer, {});
    const list = b.transfers.list('u1', { sort: 'amount', ending_before: t.id });
    await expect(list).rejects.toMatchObject({
      fields: [{ field: 'ending_before', message: 'Unknown transfer' }],
    });
    await expect(list).rejects.toBeInstanceOf(BadInput);
  });
});
