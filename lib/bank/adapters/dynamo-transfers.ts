// DynamoDB adapter of the transfers: one item per transfer in the user's partition, three GSIs for
// the other orders (lib/data/keys.ts). Listings read a key range and filter the rest, bounded.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, indexName } from '../../data/dynamo.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { MAX_TRANSFER_SECONDS, transferIdCeiling, transferIdFloor } from '../ids.ts';
import { MAX_AMOUNT, type TransferRecord } from '../model.ts';
import type { Completion, ListPage, ListQuery, StepUp, TransferStore } from '../ports.ts';
import { complete, consumeStepUp, pick, table, transact, type Item } from './dynamo-writes.ts';
import { lost } from './lost.ts';
import { searchText } from './search.ts';

/** Filtered listings evaluate at most SCAN_PAGE items per Query and MAX_QUERIES Queries per call. */
export const SCAN_PAGE = 100;
export const MAX_QUERIES = 5;

const TRANSFER_FIELDS = [
  'id',
  'userId',
  'amount',
  'currency',
  'destination',
  'description',
  'metadata',
  'created',
  'updated',
  'version',
] as const;
const toTransfer = (i: Item): TransferRecord => ({
  ...pick<TransferRecord>(i, TRANSFER_FIELDS),
  metadata: (i.metadata as Record<string, string>) ?? {},
});

const transferItem = (t: TransferRecord): Item => ({
  ...k.transfer(t.userId, t.id),
  ...k.transferIndexes(t),
  type: 'transfer',
  ...t,
  qDestination: t.destination.toLowerCase(),
  qText: searchText(t),
});

export async function putTransfer(
  t: TransferRecord,
  opts: { stepUp?: StepUp; complete?: (stored: TransferRecord) => Completion },
): Promise<TransferRecord> {
  const put = { TableName: table(), Item: transferItem(t), ConditionExpression: 'attribute_not_exists(PK)' };
  if (opts.stepUp) {
    // Transaction: the step-up is spent exactly when the transfer it allows is written (and the
    // key completes with them, so a retry after a lost answer replays instead of asking again).
    await transact([
      consumeStepUp(opts.stepUp, lost.stepUp),
      { item: { Put: put }, lost: lost.state },
      ...complete(opts.complete?.(t), lost.key),
    ]);
    return t;
  }
  // One conditional put, then the key's completion: no transaction. A retry that takes over the key
  // of an attempt that died between the two derives the same id and finds that attempt's transfer.
  let stored = t;
  await transact([
    {
      item: { Put: put },
      lost: (old) => {
        if (!opts.complete || !old) return lost.state();
        stored = toTransfer(old);
        return EARLIER_ATTEMPT;
      },
    },
  ]).catch((err) => {
    if (err !== EARLIER_ATTEMPT) throw err;
  });
  if (opts.complete) await transact(complete(opts.complete(stored), lost.key));
  return stored;
}

/** The put found the transfer an earlier attempt under the same Idempotency-Key wrote. */
const EARLIER_ATTEMPT = new Error('written by an earlier attempt under the key');

export async function getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.transfer(userId, transferId) }),
  );
  return Item ? toTransfer(Item) : undefined;
}

export async function saveTransfer(t: TransferRecord, completion?: Completion): Promise<void> {
  // With a completion, a transaction: the new version and the key's stored response change together
  // (a retry after a lost answer must replay, not apply the change again). Without, one conditional put.
  await transact([
    {
      item: {
        Put: {
          TableName: table(),
          Item: transferItem(t),
          ConditionExpression: 'version = :previous',
          ExpressionAttributeValues: { ':previous': t.version - 1 },
        },
      },
      lost: lost.version,
    },
    ...complete(completion, lost.key),
  ]);
}

export async function listTransfers(q: ListQuery): Promise<ListPage> {
  const order = k.transferOrder(q.userId, q.by, q.currency);
  const [lo, hi] =
    q.by === 'created'
      ? [
          order.sortKeyOf({ id: transferIdFloor(q.created.gte ?? 0), amount: 0 }),
          order.sortKeyOf({ id: transferIdCeiling(q.created.lte ?? MAX_TRANSFER_SECONDS), amount: 0 }),
        ]
      : [
          order.sortKeyOf({ id: '', amount: q.amount.gte ?? 0 }),
          order.sortKeyOf({ id: '~', amount: q.amount.lte ?? MAX_AMOUNT }),
        ];
  const empty: ListPage = { data: [], hasMore: false };
  if (lo > hi) return empty;

  const forward = q.before === undefined;
  const ascending = forward !== q.descending;
  let start: Item | undefined;
  const cursor = q.after ?? q.before;
  if (cursor) {
    const position = await positionOf(q, order.sortKeyOf, cursor);
    if (ascending ? position >= hi : position <= lo) return empty;
    if (ascending ? position >= lo : position <= hi) {
      start = { ...k.transfer(q.userId, cursor), [order.pk]: order.partition, [order.sk]: position };
    }
  }

  const filter = listFilter(q);
  const items: Item[] = [];
  for (let queries = 1; ; queries++) {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        IndexName: order.index && indexName(order.index),
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
        FilterExpression: filter.expression,
        ExpressionAttributeNames: { '#pk': order.pk, '#sk': order.sk, ...filter.names },
        ExpressionAttributeValues: { ':pk': order.partition, ':lo': lo, ':hi': hi, ...filter.values },
        ScanIndexForward: ascending,
        Limit: filter.expression ? SCAN_PAGE : q.limit + 1 - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    if (items.length > q.limit) return pageOf(items.slice(0, q.limit), forward, true);
    start = page.LastEvaluatedKey;
    if (!start) return pageOf(items, forward, false);
    if (queries >= MAX_QUERIES)
      return { ...pageOf(items, forward, true), resumeFrom: k.transferIdOf(String(start.SK)) };
  }
}

/** The sort key of the cursor transfer in this listing's order; amount orders read the transfer. */
async function positionOf(
  q: ListQuery,
  sortKeyOf: (t: { id: string; amount: number }) => string,
  cursor: string,
) {
  if (q.by === 'created') return sortKeyOf({ id: cursor, amount: 0 });
  const transfer = await getTransfer(q.userId, cursor);
  if (!transfer) throw lost.cursor();
  return sortKeyOf(transfer);
}

/** Every method, for the full transfer service (writes, tests); the reads wire only what they call. */
export class DynamoTransferStore implements TransferStore {
  putTransfer = putTransfer;
  getTransfer = getTransfer;
  saveTransfer = saveTransfer;
  listTransfers = listTransfers;
}

function pageOf(items: Item[], forward: boolean, hasMore: boolean): ListPage {
  const data = items.map(toTransfer);
  return { data: forward ? data : data.reverse(), hasMore };
}

/** Conditions the chosen index cannot apply as a key range become a FilterExpression. */
function listFilter(q: ListQuery) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const range = (attr: 'created' | 'amount', r: { gte?: number; lte?: number }) => {
    if (r.gte !== undefined) {
      parts.push(`#${attr} >= :${attr}Gte`);
      values[`:${attr}Gte`] = r.gte;
      names[`#${attr}`] = attr;
    }
    if (r.lte !== undefined) {
      parts.push(`#${attr} <= :${attr}Lte`);
      values[`:${attr}Lte`] = r.lte;
      names[`#${attr}`] = attr;
    }
  };
  if (q.by === 'created') range('amount', q.amount);
  else range('created', q.created);
  if (q.destination !== undefined) {
    parts.push('destination = :destination');
    values[':destination'] = q.destination;
  }
  if (q.q !== undefined) {
    parts.push('(contains(qDestination, :q) OR contains(qText, :q))');
    values[':q'] = q.q;
  }
  return parts.length
    ? { expression: parts.join(' AND '), names, values }
    : { expression: undefined, names: {}, values: {} };
}
