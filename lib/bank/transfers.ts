// Transfers: create (with step-up over the threshold), read, replace, partial update, and listing
// with cursor pagination, sorting, filtering and search. Knows nothing of HTTP.
import { BadInput, Conflict, Invalid, isConflict, NotFound, StepUpRequired } from '../domain/errors.ts';
import { seconds, type Clock } from '../domain/clock.ts';
import type { Origin } from '../domain/idempotency.ts';
import { type RetryPolicy, retryOnConflict } from '../domain/retry.ts';
import { newTransferId, TRANSFER_ID, transferIdOf } from './ids.ts';
import { MAX_METADATA_KEYS, type Transfer, type TransferRecord } from './model.ts';
import type { ListPage, ListQuery, TransferStore } from './ports.ts';
import { stepUpFor, stepUpRequired, type Complete } from './step-up.ts';

export interface NewTransfer {
  amount: number;
  currency: string;
  destination: string;
  description?: string | null;
  metadata?: Record<string, string>;
}
export interface TransferChanges {
  description?: string | null;
  metadata?: Record<string, string> | null;
}

/** Bounds of a listing; gt/lt are exclusive, gte/lte inclusive; the tighter bound wins. */
export interface Bounds {
  gte?: number;
  gt?: number;
  lte?: number;
  lt?: number;
}

export interface ListParams {
  sort?: 'created' | '-created' | 'amount' | '-amount';
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  currency?: string;
  destination?: string;
  created?: Bounds;
  amount?: Bounds;
  /** Case-insensitive search text. */
  q?: string;
}

export interface TransferPage {
  data: Transfer[];
  has_more: boolean;
  /** Cursors of the neighbouring pages, when there are any. */
  next?: { starting_after: string };
  prev?: { ending_before: string };
}

export const DEFAULT_PAGE_SIZE = 10;
const UPDATE_ATTEMPTS = 3;
/** A transfer's update: written conditionally on the version read, again on a fresh read. */
const UPDATE_RETRY: RetryPolicy = {
  attempts: UPDATE_ATTEMPTS,
  conflict: (err) => isConflict(err, 'version'),
  exhausted: () => new Conflict('The transfer kept changing while it was being updated; retry'),
};

export const present = ({ userId: _u, version: _v, ...t }: TransferRecord): Transfer => t;
/** The map without its "" values; null-prototype, so no key (`constructor` included) reads a prototype's. */
const withoutEmpty = (m: Record<string, string>): Record<string, string> =>
  Object.assign(Object.create(null), Object.fromEntries(Object.entries(m).filter(([, v]) => v !== '')));

export class TransferService {
  constructor(
    private readonly store: TransferStore,
    private readonly stepUpAmount: () => number,
    private readonly clock: Clock,
  ) {}

  async create(
    userId: string,
    input: NewTransfer,
    opts: { verificationId?: string; complete?: Complete<Transfer>; origin?: Origin },
  ): Promise<Transfer> {
    // Under an Idempotency-Key the id and time come from the key's first attempt (lib/bank/ids.ts).
    const now = opts.origin && opts.complete ? opts.origin.startedAt : seconds(this.clock);
    const record: TransferRecord = {
      id: opts.origin && opts.complete ? transferIdOf(opts.origin) : newTransferId(now),
      userId,
      amount: input.amount,
      currency: input.currency,
      destination: input.destination,
      description: input.description ?? null,
      metadata: withoutEmpty(input.metadata ?? {}),
      created: now,
      updated: now,
      version: 1,
    };
    const why = `Transfers of ${this.stepUpAmount()} or more need a step-up`;
    const stepUp =
      input.amount >= this.stepUpAmount() ? stepUpFor(userId, opts.verificationId, now, why) : undefined;
    const complete = opts.complete;
    try {
      return present(
        await this.store.putTransfer(record, {
          stepUp,
          complete: complete && ((stored) => complete(present(stored))),
        }),
      );
    } catch (err) {
      if (err instanceof StepUpRequired) throw stepUpRequired(why);
      throw err;
    }
  }

  async get(userId: string, transferId: string): Promise<Transfer> {
    return present(await this.record(userId, transferId));
  }

  /** PUT: description and metadata are replaced; absent means cleared. */
  replace(
    userId: string,
    transferId: string,
    changes: TransferChanges,
    complete?: Complete<Transfer>,
  ): Promise<Transfer> {
    const apply = () => ({
      description: changes.description ?? null,
      metadata: withoutEmpty(changes.metadata ?? {}),
    });
    return this.change(userId, transferId, apply, complete);
  }

  /** POST: only what is sent changes; metadata keys merge, "" removes a key, null clears all. */
  update(
    userId: string,
    transferId: string,
    changes: TransferChanges,
    complete?: Complete<Transfer>,
  ): Promise<Transfer> {
    return this.change(
      userId,
      transferId,
      (t) => ({
        description: changes.description === undefined ? t.description : changes.description,
        metadata: changes.metadata === null ? {} : withoutEmpty({ ...t.metadata, ...changes.metadata }),
      }),
      complete,
    );
  }

  async list(userId: string, params: ListParams): Promise<TransferPage> {
    const sort = params.sort ?? '-created';
    const query: ListQuery = {
      userId,
      by: sort.endsWith('amount') ? 'amount' : 'created',
      descending: sort.startsWith('-'),
      limit: params.limit ?? DEFAULT_PAGE_SIZE,
      after: params.starting_after,
      before: params.ending_before,
      currency: params.currency,
      destination: params.destination,
      created: inclusive(params.created),
      amount: inclusive(params.amount),
      q: params.q?.toLowerCase(),
    };
    let page: ListPage;
    try {
      page = await this.store.listTransfers(query);
    } catch (err) {
      if (!(err instanceof BadInput && err.reason === 'cursor')) throw err;
      const field = query.after ? 'starting_after' : 'ending_before';
      throw new BadInput(`${field} does not name one of your transfers`, {
        fields: [{ field, message: 'Unknown transfer' }],
      });
    }
    const data = page.data.map(present);
    const first = data[0]?.id;
    const last = data.at(-1)?.id;
    const backward = query.before !== undefined;
    const next = backward ? last : page.hasMore ? (page.resumeFrom ?? last) : undefined;
    const prev = backward
      ? page.hasMore
        ? (page.resumeFrom ?? first)
        : undefined
      : query.after
        ? first
        : undefined;
    return {
      data,
      has_more: page.hasMore,
      ...(next ? { next: { starting_after: next } } : {}),
      ...(prev ? { prev: { ending_before: prev } } : {}),
    };
  }

  private async record(userId: string, transferId: string): Promise<TransferRecord> {
    const record = TRANSFER_ID.test(transferId)
      ? await this.store.getTransfer(userId, transferId)
      : undefined;
    if (!record) throw new NotFound(`Transfer ${transferId} does not exist`);
    return record;
  }

  /** Read, apply, write conditionally on the version read; retried when another update won. */
  private async change(
    userId: string,
    transferId: string,
    apply: (t: TransferRecord) => Pick<Transfer, 'description' | 'metadata'>,
    complete?: Complete<Transfer>,
  ): Promise<Transfer> {
    return retryOnConflict(UPDATE_RETRY, async () => {
      const current = await this.record(userId, transferId);
      const next: TransferRecord = {
        ...current,
        ...apply(current),
        updated: seconds(this.clock),
        version: current.version + 1,
      };
      if (Object.keys(next.metadata).length > MAX_METADATA_KEYS) {
        throw new Invalid('One or more fields are invalid', {
          fields: [
            { field: 'metadata', message: `A transfer has at most ${MAX_METADATA_KEYS} metadata keys` },
          ],
        });
      }
      const transfer = present(next);
      await this.store.saveTransfer(next, complete?.(transfer));
      return transfer;
    });
  }
}

/** gt/lt become inclusive bounds (values are integers); the tighter bound wins. */
function inclusive(b: Bounds = {}): { gte?: number; lte?: number } {
  const lows = [b.gte, b.gt === undefined ? undefined : b.gt + 1].filter((v): v is number => v !== undefined);
  const highs = [b.lte, b.lt === undefined ? undefined : b.lt - 1].filter(
    (v): v is number => v !== undefined,
  );
  return {
    gte: lows.length ? Math.max(...lows) : undefined,
    lte: highs.length ? Math.min(...highs) : undefined,
  };
}
