// Transfers: create (with step-up over the threshold), read, replace, partial update, and listing
// with cursor pagination, sorting, filtering and search. Knows nothing of HTTP.
import { badRequest, conflict, notFound, validationFailed } from '../http/errors.ts';
import { newTransferId, TRANSFER_ID } from './ids.ts';
import { nowSeconds, type Transfer, type TransferRecord } from './model.ts';
import type { ListTransfersQuery } from './schemas.ts';
import { stepUpFor, stepUpRequired } from './step-up.ts';
import { refusalToError, type Complete } from './refusals.ts';
import { UnknownCursor, WriteRefused, type BankStore, type ListQuery } from './store.ts';

export interface NewTransfer { amount: number; currency: string; destination: string; description?: string | null; metadata?: Record<string, string> }
export interface TransferChanges { description?: string | null; metadata?: Record<string, string> | null }

export interface TransferPage {
  data: Transfer[];
  has_more: boolean;
  /** Cursors of the neighbouring pages, when there are any. */
  next?: { starting_after: string };
  prev?: { ending_before: string };
}

const MAX_METADATA_KEYS = 50;
const UPDATE_ATTEMPTS = 3;

export const present = ({ userId: _u, version: _v, ...t }: TransferRecord): Transfer => t;
const withoutEmpty = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== ''));

export class TransferService {
  constructor(private readonly store: BankStore, private readonly stepUpAmount: () => number) {}

  async create(userId: string, input: NewTransfer, opts: { verificationId?: string; complete?: Complete<Transfer> }): Promise<Transfer> {
    const now = nowSeconds();
    const record: TransferRecord = {
      id: newTransferId(now), userId, amount: input.amount, currency: input.currency, destination: input.destination,
      description: input.description ?? null, metadata: withoutEmpty(input.metadata ?? {}), created: now, updated: now, version: 1,
    };
    const why = `Transfers of ${this.stepUpAmount()} or more need a step-up`;
    const stepUp = input.amount >= this.stepUpAmount() ? stepUpFor(userId, opts.verificationId, now, why) : undefined;
    const transfer = present(record);
    try {
      await this.store.putTransfer(record, { stepUp, completion: opts.complete?.(transfer) });
    } catch (err) {
      if (err instanceof WriteRefused && err.reason === 'step_up') throw stepUpRequired(why);
      throw refusalToError(err);
    }
    return transfer;
  }

  async get(userId: string, transferId: string): Promise<Transfer> {
    return present(await this.record(userId, transferId));
  }

  /** PUT: description and metadata are replaced; absent means cleared. */
  replace(userId: string, transferId: string, changes: TransferChanges, complete?: Complete<Transfer>): Promise<Transfer> {
    return this.change(userId, transferId, () => ({ description: changes.description ?? null, metadata: withoutEmpty(changes.metadata ?? {}) }), complete);
  }

  /** POST: only what is sent changes; metadata keys merge, "" removes a key, null clears all. */
  update(userId: string, transferId: string, changes: TransferChanges, complete?: Complete<Transfer>): Promise<Transfer> {
    return this.change(userId, transferId, (t) => ({
      description: changes.description === undefined ? t.description : changes.description,
      metadata: changes.metadata === null ? {} : withoutEmpty({ ...t.metadata, ...changes.metadata }),
    }), complete);
  }

  async list(userId: string, params: ListTransfersQuery): Promise<TransferPage> {
    const sort = params.sort ?? '-created';
    const query: ListQuery = {
      userId, by: sort.endsWith('amount') ? 'amount' : 'created', descending: sort.startsWith('-'), limit: params.limit ?? 10,
      after: params.starting_after, before: params.ending_before, currency: params.currency, destination: params.destination,
      created: range(params['created[gte]'], params['created[gt]'], params['created[lte]'], params['created[lt]']),
      amount: range(params['amount[gte]'], params['amount[gt]'], params['amount[lte]'], params['amount[lt]']),
      q: params.q?.toLowerCase(),
    };
    let page;
    try {
      page = await this.store.listTransfers(query);
    } catch (err) {
      if (!(err instanceof UnknownCursor)) throw err;
      const field = query.after ? 'starting_after' : 'ending_before';
      throw badRequest(`${field} does not name one of your transfers`, [{ field, message: 'Unknown transfer' }]);
    }
    const data = page.data.map(present);
    const first = data[0]?.id;
    const last = data.at(-1)?.id;
    const backward = query.before !== undefined;
    const next = backward ? last : page.hasMore ? (page.resumeFrom ?? last) : undefined;
    const prev = backward ? (page.hasMore ? (page.resumeFrom ?? first) : undefined) : query.after ? first : undefined;
    return {
      data, has_more: page.hasMore,
      ...(next ? { next: { starting_after: next } } : {}),
      ...(prev ? { prev: { ending_before: prev } } : {}),
    };
  }

  private async record(userId: string, transferId: string): Promise<TransferRecord> {
    const record = TRANSFER_ID.test(transferId) ? await this.store.getTransfer(userId, transferId) : undefined;
    if (!record) throw notFound(`Transfer ${transferId} does not exist`);
    return record;
  }

  /** Read, apply, write conditionally on the version read; retried when another update won. */
  private async change(userId: string, transferId: string, apply: (t: TransferRecord) => Pick<Transfer, 'description' | 'metadata'>, complete?: Complete<Transfer>): Promise<Transfer> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const current = await this.record(userId, transferId);
      const next: TransferRecord = { ...current, ...apply(current), updated: nowSeconds(), version: current.version + 1 };
      if (Object.keys(next.metadata).length > MAX_METADATA_KEYS) {
        throw validationFailed([{ field: 'metadata', message: `A transfer has at most ${MAX_METADATA_KEYS} metadata keys` }]);
      }
      const transfer = present(next);
      try {
        await this.store.saveTransfer(next, complete?.(transfer));
        return transfer;
      } catch (err) {
        if (!(err instanceof WriteRefused && err.reason === 'version')) throw refusalToError(err);
      }
    }
    throw conflict('The transfer kept changing while it was being updated; retry');
  }
}

/** gt/lt become inclusive bounds (values are integers); the tighter bound wins. */
function range(gte?: number, gt?: number, lte?: number, lt?: number) {
  const lows = [gte, gt === undefined ? undefined : gt + 1].filter((v): v is number => v !== undefined);
  const highs = [lte, lt === undefined ? undefined : lt - 1].filter((v): v is number => v !== undefined);
  return { gte: lows.length ? Math.max(...lows) : undefined, lte: highs.length ? Math.min(...highs) : undefined };
}
