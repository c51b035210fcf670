// DynamoDB adapter of the bank port. Every write that must not race is conditional; writes that
// belong together (a transfer, its step-up and its idempotency completion) are one transaction.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { doc } from '../data/clients.ts';
import { completionItem, releaseIdempotencyKey, reserveIdempotencyKey } from '../data/idempotency.ts';
import { bankKeys as k } from '../data/keys.ts';
import { transferIdCeiling, transferIdFloor } from './ids.ts';
import { LimitReached, retryAfter, rolled, type LimitSlot } from './limits.ts';
import type { Device, MfaTokenRecord, OutboxEntry, TransferRecord, Verification, VerificationStatus } from './model.ts';
import {
  UnknownCursor, WriteRefused, type Approval, type BankStore, type Completion, type IdempotencyRecord, type ListPage,
  type ListQuery, type Refusal, type StepUp,
} from './store.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** A transaction item and what its failed condition means. */
interface Write { item: TransactItem; refusal: Refusal }

const DAY = 86_400;
/** A limit counter that moves to a new window under concurrent requests: attempts before giving up (409). */
const LIMIT_ATTEMPTS = 3;
/** A number attribute, marshalled ({N: "1"}) or not. */
const numberOf = (v: unknown): number => Number(v && typeof v === 'object' && 'N' in v ? (v as { N: string }).N : v);
/** Filtered listings evaluate at most SCAN_PAGE items per Query and MAX_QUERIES Queries per call. */
export const SCAN_PAGE = 100;
export const MAX_QUERIES = 5;
const MAX_AMOUNT = 99_999_999;
const MAX_SECONDS = 36 ** 7 - 1;

const TRANSFER_FIELDS = ['id', 'userId', 'amount', 'currency', 'destination', 'description', 'metadata', 'created', 'updated', 'version'] as const;
const DEVICE_FIELDS = ['id', 'userId', 'kind', 'name', 'default', 'created', 'last_used', 'address', 'sealedSecret', 'lastStep'] as const;
const VERIFICATION_FIELDS = ['id', 'userId', 'deviceId', 'kind', 'status', 'attempts', 'created', 'expires_at', 'codeHash', 'sealedSecret', 'approvedAt', 'consumedAt'] as const;
const pick = <T>(item: Item, fields: readonly string[]): T => Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
const toTransfer = (i: Item): TransferRecord => ({ ...pick<TransferRecord>(i, TRANSFER_FIELDS), metadata: (i.metadata as Record<string, string>) ?? {} });

/** Lower-case text `q` searches: description and metadata values (destination is kept apart). */
const searchText = (t: TransferRecord) => [t.description ?? '', ...Object.values(t.metadata)].join('\n').toLowerCase();

export class DynamoBankStore implements BankStore {
  constructor(private readonly table: () => string) {}

  // ---- transfers ----------------------------------------------------------------------------
  private transferItem(t: TransferRecord): Item {
    return { ...k.transfer(t.userId, t.id), ...k.transferIndexes(t), type: 'transfer', ...t, qDestination: t.destination.toLowerCase(), qText: searchText(t) };
  }

  async putTransfer(t: TransferRecord, opts: { stepUp?: StepUp; completion?: Completion }): Promise<void> {
    await this.transact([
      ...(opts.stepUp ? [this.consumeStepUp(opts.stepUp)] : []),
      { item: { Put: { TableName: this.table(), Item: this.transferItem(t), ConditionExpression: 'attribute_not_exists(PK)' } }, refusal: 'state' },
      ...this.complete(opts.completion),
    ]);
  }

  async getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.transfer(userId, transferId) }));
    return Item ? toTransfer(Item) : undefined;
  }

  async saveTransfer(t: TransferRecord, completion?: Completion): Promise<void> {
    await this.transact([
      {
        item: { Put: { TableName: this.table(), Item: this.transferItem(t), ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': t.version - 1 } } },
        refusal: 'version',
      },
      ...this.complete(completion),
    ]);
  }

  async listTransfers(q: ListQuery): Promise<ListPage> {
    const order = k.transferOrder(q.userId, q.by, q.currency);
    const [lo, hi] = q.by === 'created'
      ? [order.sortKeyOf({ id: transferIdFloor(q.created.gte ?? 0), amount: 0 }), order.sortKeyOf({ id: transferIdCeiling(q.created.lte ?? MAX_SECONDS), amount: 0 })]
      : [order.sortKeyOf({ id: '', amount: q.amount.gte ?? 0 }), order.sortKeyOf({ id: '~', amount: q.amount.lte ?? MAX_AMOUNT })];
    const empty: ListPage = { data: [], hasMore: false };
    if (lo > hi) return empty;

    const forward = q.before === undefined;
    const ascending = forward !== q.descending;
    let start: Item | undefined;
    const cursor = q.after ?? q.before;
    if (cursor) {
      const position = await this.positionOf(q, order.sortKeyOf, cursor);
      if (ascending ? position >= hi : position <= lo) return empty;
      if (ascending ? position >= lo : position <= hi) start = { ...k.transfer(q.userId, cursor), [order.pk]: order.partition, [order.sk]: position };
    }

    const filter = this.listFilter(q);
    const items: Item[] = [];
    for (let queries = 1; ; queries++) {
      const page = await doc.send(new QueryCommand({
        TableName: this.table(), IndexName: order.index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
        FilterExpression: filter.expression,
        ExpressionAttributeNames: { '#pk': order.pk, '#sk': order.sk, ...filter.names },
        ExpressionAttributeValues: { ':pk': order.partition, ':lo': lo, ':hi': hi, ...filter.values },
        ScanIndexForward: ascending,
        Limit: filter.expression ? SCAN_PAGE : q.limit + 1 - items.length,
        ExclusiveStartKey: start,
      }));
      items.push(...(page.Items ?? []));
      if (items.length > q.limit) return this.page(items.slice(0, q.limit), forward, true);
      start = page.LastEvaluatedKey;
      if (!start) return this.page(items, forward, false);
      if (queries >= MAX_QUERIES) return { ...this.page(items, forward, true), resumeFrom: String(start.SK).slice('TRANSFER#'.length) };
    }
  }

  private page(items: Item[], forward: boolean, hasMore: boolean): ListPage {
    const data = items.map(toTransfer);
    return { data: forward ? data : data.reverse(), hasMore };
  }

  /** The sort key of the cursor transfer in this listing's order; amount orders read the transfer. */
  private async positionOf(q: ListQuery, sortKeyOf: (t: { id: string; amount: number }) => string, cursor: string): Promise<string> {
    if (q.by === 'created') return sortKeyOf({ id: cursor, amount: 0 });
    const transfer = await this.getTransfer(q.userId, cursor);
    if (!transfer) throw new UnknownCursor(cursor);
    return sortKeyOf(transfer);
  }

  /** Conditions the chosen index cannot apply as a key range become a FilterExpression. */
  private listFilter(q: ListQuery) {
    const parts: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const range = (attr: 'created' | 'amount', r: { gte?: number; lte?: number }) => {
      if (r.gte !== undefined) { parts.push(`#${attr} >= :${attr}Gte`); values[`:${attr}Gte`] = r.gte; names[`#${attr}`] = attr; }
      if (r.lte !== undefined) { parts.push(`#${attr} <= :${attr}Lte`); values[`:${attr}Lte`] = r.lte; names[`#${attr}`] = attr; }
    };
    if (q.by === 'created') range('amount', q.amount); else range('created', q.created);
    if (q.destination !== undefined) { parts.push('destination = :destination'); values[':destination'] = q.destination; }
    if (q.q !== undefined) { parts.push('(contains(qDestination, :q) OR contains(qText, :q))'); values[':q'] = q.q; }
    return parts.length ? { expression: parts.join(' AND '), names, values } : { expression: undefined, names: {}, values: {} };
  }

  // ---- factors ------------------------------------------------------------------------------
  async putDevice(d: Device): Promise<void> {
    await doc.send(new PutCommand({ TableName: this.table(), Item: { ...k.device(d.userId, d.id), type: 'device', ...d }, ConditionExpression: 'attribute_not_exists(PK)' }));
  }

  async getDevice(userId: string, deviceId: string): Promise<Device | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.device(userId, deviceId) }));
    return Item ? pick<Device>(Item, DEVICE_FIELDS) : undefined;
  }

  async listDevices(userId: string): Promise<Device[]> {
    const items = await this.queryPrefix(userId, k.devicePrefix);
    return items.map((i) => pick<Device>(i, DEVICE_FIELDS));
  }

  async deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void> {
    await this.transact([
      this.consumeStepUp(stepUp),
      { item: { Delete: { TableName: this.table(), Key: k.device(userId, deviceId), ConditionExpression: 'attribute_exists(PK)' } }, refusal: 'missing' },
    ]);
  }

  // ---- verifications ------------------------------------------------------------------------
  async createVerification(v: Verification, opts: { outbox?: OutboxEntry; completion?: Completion; start?: LimitSlot }): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.writeVerification(v, opts);
      } catch (err) {
        if (!(err instanceof WriteRefused && err.reason === 'limit' && opts.start) || attempt === LIMIT_ATTEMPTS) throw err;
        await this.settleLimit(opts.start, err.item, v.created);
      }
    }
  }

  private async writeVerification(v: Verification, opts: { outbox?: OutboxEntry; completion?: Completion; start?: LimitSlot }): Promise<void> {
    const ttl = v.expires_at + DAY;
    const outbox = opts.outbox;
    await this.transact([
      ...(opts.start ? [{ item: { Update: this.countLimit(opts.start) }, refusal: 'limit' as const }] : []),
      { item: { Put: { TableName: this.table(), Item: { ...k.verification(v.userId, v.id), type: 'verification', ...v, ttl }, ConditionExpression: 'attribute_not_exists(PK)' } }, refusal: 'state' },
      ...(outbox ? [{ item: { Put: { TableName: this.table(), Item: { ...k.outbox(outbox.userId, outbox.sent * 1000, outbox.verificationId), type: 'outbox', ...outbox, ttl: outbox.expires_at } } }, refusal: 'state' as const }] : []),
      ...this.complete(opts.completion),
    ]);
  }

  async getVerification(userId: string, verificationId: string, tokenHash?: string) {
    const verificationKey = k.verification(userId, verificationId);
    if (!tokenHash) {
      const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: verificationKey, ConsistentRead: true }));
      return { verification: Item ? pick<Verification>(Item, VERIFICATION_FIELDS) : undefined };
    }
    const { Responses } = await doc.send(new BatchGetCommand({ RequestItems: { [this.table()]: { Keys: [verificationKey, k.mfaToken(tokenHash)], ConsistentRead: true } } }));
    const items = Responses?.[this.table()] ?? [];
    const verification = items.find((i) => i.SK === verificationKey.SK);
    const token = items.find((i) => i.SK === 'MFATOKEN');
    return {
      verification: verification ? pick<Verification>(verification, VERIFICATION_FIELDS) : undefined,
      token: token ? pick<MfaTokenRecord>(token, ['tokenHash', 'userId', 'reusable', 'expires_at', 'created']) : undefined,
    };
  }

  async recordFailure(v: Verification, attempts: number, status: VerificationStatus): Promise<void> {
    await this.conditional(doc.send(new UpdateCommand({
      TableName: this.table(), Key: k.verification(v.userId, v.id),
      UpdateExpression: 'SET attempts = :attempts, #status = :status',
      ConditionExpression: 'attempts = :seen AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':attempts': attempts, ':status': status, ':seen': v.attempts, ':pending': 'pending' },
    })), 'state');
  }

  async approve(v: Verification, a: Approval): Promise<void> {
    const writes: Write[] = [
      {
        item: {
          Update: {
            TableName: this.table(), Key: k.verification(v.userId, v.id),
            UpdateExpression: 'SET #status = :approved, approvedAt = :now',
            ConditionExpression: 'attempts = :seen AND #status = :pending AND expires_at > :now',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':approved': 'approved', ':now': a.now, ':seen': v.attempts, ':pending': 'pending' },
          },
        },
        refusal: 'state',
      },
      {
        item: {
          Update: {
            TableName: this.table(), Key: k.device(v.userId, v.deviceId),
            UpdateExpression: a.step === undefined ? 'SET last_used = :now' : 'SET last_used = :now, lastStep = :step',
            ConditionExpression: a.step === undefined ? 'attribute_exists(PK)' : 'attribute_exists(PK) AND (attribute_not_exists(lastStep) OR lastStep = :null OR lastStep < :step)',
            ExpressionAttributeValues: a.step === undefined ? { ':now': a.now } : { ':now': a.now, ':step': a.step, ':null': null },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        refusal: a.step === undefined ? 'missing' : 'replay',
      },
      ...(a.token ? [this.useToken(a.token.tokenHash, a.token.consume, a.now)] : []),
      ...(a.release ? [this.releaseLimit(a.release)] : []),
      ...this.complete(a.completion),
    ];
    await this.transact(writes);
  }

  private useToken(tokenHash: string, consume: boolean, now: number): Write {
    const condition = { ConditionExpression: 'attribute_exists(PK) AND expires_at > :now', ExpressionAttributeValues: { ':now': now } };
    const item: TransactItem = consume
      ? { Delete: { TableName: this.table(), Key: k.mfaToken(tokenHash), ...condition } }
      : { ConditionCheck: { TableName: this.table(), Key: k.mfaToken(tokenHash), ...condition } };
    return { item, refusal: 'token' };
  }

  /** Marks a step-up verification consumed, if it is approved, unused and recent. */
  private consumeStepUp(s: StepUp): Write {
    return {
      item: {
        Update: {
          TableName: this.table(), Key: k.verification(s.userId, s.verificationId),
          UpdateExpression: 'SET consumedAt = :now',
          ConditionExpression: '#status = :approved AND approvedAt >= :since AND (attribute_not_exists(consumedAt) OR consumedAt = :null)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': s.now, ':approved': 'approved', ':since': s.approvedSince, ':null': null },
        },
      },
      refusal: 'step_up',
    };
  }

  // ---- mfa tokens and outbox ----------------------------------------------------------------
  async putMfaToken(t: MfaTokenRecord, completion?: Completion): Promise<void> {
    await this.transact([
      { item: { Put: { TableName: this.table(), Item: { ...k.mfaToken(t.tokenHash), type: 'mfa_token', ...t, ttl: t.expires_at }, ConditionExpression: 'attribute_not_exists(PK)' } }, refusal: 'state' },
      ...this.complete(completion),
    ]);
  }

  async listOutbox(userId: string, now: number): Promise<OutboxEntry[]> {
    const items = await this.queryPrefix(userId, k.outboxPrefix);
    return items
      .filter((i) => Number(i.expires_at) > now)
      .map((i) => pick<OutboxEntry>(i, ['userId', 'verificationId', 'deviceId', 'channel', 'to', 'code', 'sent', 'expires_at']));
  }

  // ---- abuse limits (lib/bank/limits.ts) -----------------------------------------------------
  async takeLimitSlot(slot: LimitSlot, now: number): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await doc.send(new UpdateCommand(this.countLimit(slot)));
        return;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException) || attempt === LIMIT_ATTEMPTS) throw err;
        await this.settleLimit(slot, err.Item, now);
      }
    }
  }

  /** Counts one event: the first ever creates the counter; else it must be this window's and under its cap. */
  private countLimit(slot: LimitSlot) {
    return {
      TableName: this.table(), Key: k.mfaLimit(slot.userId, slot.name, slot.subject),
      UpdateExpression: 'SET #type = :type, #window = if_not_exists(#window, :window), #cap = if_not_exists(#cap, :max), #ttl = :ttl ADD #count :one',
      ConditionExpression: 'attribute_not_exists(PK) OR (#window = :window AND #count < #cap)',
      ExpressionAttributeNames: { '#type': 'type', '#window': 'window', '#cap': 'cap', '#count': 'count', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':type': 'mfa-limit', ':window': slot.window, ':max': slot.max, ':ttl': slot.ttl, ':one': 1 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
  }

  /** A refused count: LimitReached in the same window; else the counter moves to this window (and is retried). */
  private async settleLimit(slot: LimitSlot, item: Record<string, unknown> | undefined, now: number): Promise<void> {
    const stored = item ? { window: numberOf(item.window), count: numberOf(item.count), cap: numberOf(item.cap) } : undefined;
    if (stored && stored.window === slot.window) throw new LimitReached(slot, retryAfter(slot, stored, now));
    const next = rolled(slot, stored);
    try {
      await doc.send(new PutCommand({
        TableName: this.table(),
        Item: { ...k.mfaLimit(slot.userId, slot.name, slot.subject), type: 'mfa-limit', ...next, ttl: slot.ttl },
        ConditionExpression: stored ? '#window = :window AND #count = :count' : 'attribute_not_exists(PK)',
        ExpressionAttributeNames: stored ? { '#window': 'window', '#count': 'count' } : undefined,
        ExpressionAttributeValues: stored ? { ':window': stored.window, ':count': stored.count } : undefined,
      }));
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err; // moved by a concurrent request
    }
  }

  private releaseLimit(slot: LimitSlot): Write {
    return {
      item: {
        Update: {
          TableName: this.table(), Key: k.mfaLimit(slot.userId, slot.name, slot.subject),
          UpdateExpression: 'ADD #count :minusOne', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
      refusal: 'state',
    };
  }

  // ---- idempotency --------------------------------------------------------------------------
  reserveIdempotencyKey(userId: string, keyHash: string, fingerprint: string, leaseId: string, now: number): Promise<IdempotencyRecord | undefined> {
    return reserveIdempotencyKey(this.table(), k.idempotency(userId, keyHash), fingerprint, leaseId, now);
  }

  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    await releaseIdempotencyKey(this.table(), k.idempotency(userId, keyHash), leaseId);
  }

  private complete(c: Completion | undefined): Write[] {
    return c ? [{ item: completionItem(this.table(), k.idempotency(c.userId, c.keyHash), c), refusal: 'idempotency' }] : [];
  }

  // ---- helpers ------------------------------------------------------------------------------
  private async queryPrefix(userId: string, prefix: string): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await doc.send(new QueryCommand({
        TableName: this.table(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': k.bankPartition(userId), ':prefix': prefix }, ExclusiveStartKey: start,
      }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  private async conditional(write: Promise<unknown>, refusal: Refusal): Promise<void> {
    try {
      await write;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new WriteRefused(refusal);
      throw err;
    }
  }

  /** One TransactWriteItems request; a failed condition becomes WriteRefused naming that write's meaning. */
  private async transact(writes: Write[]): Promise<void> {
    try {
      await doc.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const w = writes[failed];
        // A device update that failed because the device is gone is not a replay.
        if (w.refusal === 'replay' && !reasons[failed].Item) throw new WriteRefused('missing');
        throw new WriteRefused(w.refusal, reasons[failed].Item as Record<string, unknown> | undefined);
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new WriteRefused('state');
      throw err;
    }
  }
}
