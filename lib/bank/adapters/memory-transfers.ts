// In-memory adapter of the transfers (unit tests): the same contract as dynamo-transfers.ts,
// without its read bound (a listing never stops early, so there is no resumeFrom).
import type { TransferRecord } from '../model.ts';
import type { Completion, ListPage, ListQuery, StepUp, TransferStore } from '../ports.ts';
import { lost } from './lost.ts';
import { at, copy, type MemoryBankTables } from './memory-tables.ts';
import { searchText } from './search.ts';

const amountKey = (t: TransferRecord) => `${String(t.amount).padStart(8, '0')}#${t.id}`;
const within = (v: number, r: { gte?: number; lte?: number }) =>
  (r.gte === undefined || v >= r.gte) && (r.lte === undefined || v <= r.lte);

export class MemoryTransferStore implements TransferStore {
  constructor(private readonly tables: MemoryBankTables) {}

  async putTransfer(
    t: TransferRecord,
    opts: { stepUp?: StepUp; complete?: (stored: TransferRecord) => Completion },
  ): Promise<TransferRecord> {
    const { tables } = this;
    const key = at(t.userId, t.id);
    if (opts.stepUp) {
      const { stepUp } = opts;
      const completion = opts.complete?.(t);
      tables.commit(
        [
          tables.stepUpCheck(stepUp),
          () => (tables.transfers.has(key) ? lost.state() : undefined),
          tables.completionCheck(completion),
        ],
        () => {
          tables.consumeStepUp(stepUp);
          tables.transfers.set(key, copy(t));
          tables.complete(completion);
        },
      );
      return copy(t);
    }
    // As in DynamoDB: the put, then the completion; an earlier attempt's transfer completes the key.
    const earlier = tables.transfers.get(key);
    if (earlier && !opts.complete) throw lost.state();
    const stored = earlier ? copy(earlier) : t;
    if (!earlier) tables.transfers.set(key, copy(t));
    const completion = opts.complete?.(stored);
    tables.commit([tables.completionCheck(completion)], () => tables.complete(completion));
    return copy(stored);
  }

  async getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined> {
    const t = this.tables.transfers.get(at(userId, transferId));
    return t && copy(t);
  }

  async saveTransfer(t: TransferRecord, completion?: Completion): Promise<void> {
    const { tables } = this;
    const key = at(t.userId, t.id);
    tables.commit(
      [
        () => (tables.transfers.get(key)?.version === t.version - 1 ? undefined : lost.version()),
        tables.completionCheck(completion),
      ],
      () => {
        tables.transfers.set(key, copy(t));
        tables.complete(completion);
      },
    );
  }

  async listTransfers(q: ListQuery): Promise<ListPage> {
    const sortKey = q.by === 'created' ? (t: TransferRecord) => t.id : amountKey;
    const all = [...this.tables.transfers.values()]
      .filter((t) => t.userId === q.userId && within(t.created, q.created) && within(t.amount, q.amount))
      .filter(
        (t) =>
          (q.currency === undefined || t.currency === q.currency) &&
          (q.destination === undefined || t.destination === q.destination),
      )
      .filter(
        (t) => q.q === undefined || t.destination.toLowerCase().includes(q.q) || searchText(t).includes(q.q),
      )
      .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    const forward = q.before === undefined;
    const ascending = forward !== q.descending;
    let scan = ascending ? all : all.reverse();
    const cursor = q.after ?? q.before;
    if (cursor) {
      const position = q.by === 'created' ? cursor : this.tables.transfers.get(at(q.userId, cursor));
      if (position === undefined) throw lost.cursor();
      const c = typeof position === 'string' ? position : amountKey(position);
      scan = scan.filter((t) => (ascending ? sortKey(t) > c : sortKey(t) < c));
    }
    const data = scan.slice(0, q.limit).map(copy);
    return { data: forward ? data : data.reverse(), hasMore: scan.length > q.limit };
  }
}
