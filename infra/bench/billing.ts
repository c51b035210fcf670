// What AWS bills for a DynamoDB request in on-demand mode, from the items it reads and writes
// (pure functions; lib/data/metering.ts records the items in the bench and the tests). DynamoDB
// Local's ConsumedCapacity is no guide: it counts transactions at 4 units per KB where AWS bills 2.
// The rules, from the DynamoDB developer guide ("Item sizes and formats", "Read/write capacity
// mode", "Capacity management for transactions", "Provisioned throughput considerations for GSIs"):
// - Item size: each attribute's name (UTF-8 bytes) plus its value. A string is its UTF-8 bytes, a
//   binary its bytes, a number 1 byte per two significant digits plus 1 (plus 1 when negative),
//   a boolean or null 1 byte; a map or list 3 bytes plus 1 byte per element plus the elements (a
//   map's element also its name); a set the sum of its elements.
// - A write bills 1 unit per KB (rounded up) of the larger of the item before and after, at least 1.
//   Each global secondary index the write touches bills the same way on the projected item (table
//   keys, index keys and the projected attributes): a new entry is a put, a removed entry a delete,
//   a change of the index's keys a delete plus a put, a change of projected attributes under the
//   same keys an update of the larger of the two; an item with the index's keys absent before and
//   after costs that index nothing, and so does a write that changes nothing the index holds.
// - TransactWriteItems bills twice the table's units of each item (prepare and commit), a
//   ConditionCheck included; the index writes it causes bill once.
// - A conditional write whose condition fails bills the size of the item it checked (at least 1).
// - A read bills 1 unit per 4 KB (rounded up), half for an eventually consistent read. GetItem and
//   each item of BatchGetItem round per item (an absent item still bills the minimum); Query and
//   Scan sum the sizes of the items they read (before any filter) and round once per request;
//   TransactGetItems bills twice per item.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type StoredItem = Record<string, AttributeValue>;

export interface IndexShape {
  name: string;
  /** Hash and range key attribute names. */
  keys: string[];
  projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  /** INCLUDE: the non-key attributes projected. */
  include?: string[];
}

export interface TableShape {
  /** The table's hash and range key attribute names. */
  keys: string[];
  indexes: IndexShape[];
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

function numberSize(n: string): number {
  const negative = n.trim().startsWith('-');
  const digits = n
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (negative ? 1 : 0);
}

const binarySize = (b: Uint8Array | string) =>
  typeof b === 'string' ? Buffer.from(b, 'base64').length : b.length;

/** Bytes of one attribute value by DynamoDB's rules. */
export function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return binarySize(v.B);
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return v.SS.reduce((t, s) => t + utf8(s), 0);
  if (v.NS !== undefined) return v.NS.reduce((t, s) => t + numberSize(s), 0);
  if (v.BS !== undefined) return v.BS.reduce((t, b) => t + binarySize(b), 0);
  if (v.L !== undefined) return 3 + v.L.reduce((t, e) => t + 1 + valueSize(e), 0);
  if (v.M !== undefined)
    return 3 + Object.entries(v.M).reduce((t, [k, e]) => t + 1 + utf8(k) + valueSize(e), 0);
  return 0;
}

/** Bytes of an item: every attribute's name and value. */
export const itemSize = (item: StoredItem): number =>
  Object.entries(item).reduce((t, [name, v]) => t + utf8(name) + valueSize(v), 0);

const KB = 1024;
const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));
const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / (4 * KB)));

/** The index's entry of an item, or undefined when the item lacks one of the index's keys. */
export function projected(
  item: StoredItem | undefined,
  table: TableShape,
  index: IndexShape,
): StoredItem | undefined {
  if (!item || index.keys.some((k) => item[k] === undefined)) return undefined;
  if (index.projection === 'ALL') return item;
  const names = new Set([
    ...table.keys,
    ...index.keys,
    ...(index.projection === 'INCLUDE' ? (index.include ?? []) : []),
  ]);
  return Object.fromEntries(Object.entries(item).filter(([k]) => names.has(k)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, e]) => [k, canonical(e)]),
    );
  return v;
}

/** Write units one index bills for an item going from `before` to `after` (either absent). */
export function indexWriteUnits(
  before: StoredItem | undefined,
  after: StoredItem | undefined,
  table: TableShape,
  index: IndexShape,
): number {
  const old = projected(before, table, index);
  const next = projected(after, table, index);
  if (!old && !next) return 0;
  if (!old) return writeUnits(itemSize(next!));
  if (!next) return writeUnits(itemSize(old));
  if (index.keys.some((k) => !same(old[k], next[k])))
    return writeUnits(itemSize(old)) + writeUnits(itemSize(next));
  if (same(old, next)) return 0;
  return writeUnits(Math.max(itemSize(old), itemSize(next)));
}

export interface ItemWrite {
  before?: StoredItem;
  after?: StoredItem;
}

/** Write units of one item's write: the table's (doubled in a transaction) and every index's. */
export function itemWriteUnits(
  write: ItemWrite,
  table: TableShape,
  opts: { transaction?: boolean } = {},
): number {
  const size = Math.max(write.before ? itemSize(write.before) : 0, write.after ? itemSize(write.after) : 0);
  const own = writeUnits(size) * (opts.transaction ? 2 : 1);
  return (
    own + table.indexes.reduce((t, index) => t + indexWriteUnits(write.before, write.after, table, index), 0)
  );
}

/** A write whose condition failed: the size of the item checked, at least 1 (doubled in a transaction). */
export const failedWriteUnits = (
  existing: StoredItem | undefined,
  opts: { transaction?: boolean } = {},
): number => writeUnits(existing ? itemSize(existing) : 0) * (opts.transaction ? 2 : 1);

/** A ConditionCheck of a transaction: twice the checked item's units. */
export const conditionCheckUnits = (existing: StoredItem | undefined): number =>
  writeUnits(existing ? itemSize(existing) : 0) * 2;

export interface ReadOptions {
  consistent?: boolean;
  transaction?: boolean;
}

const readFactor = (o: ReadOptions) => (o.transaction ? 2 : o.consistent ? 1 : 0.5);

/** GetItem (or one item of BatchGetItem or TransactGetItems): the item's size rounded up to 4 KB. */
export const getItemUnits = (item: StoredItem | undefined, o: ReadOptions = {}): number =>
  readUnits(item ? itemSize(item) : 0) * readFactor(o);

/** Query or Scan: the sizes of the items read (as the index holds them) summed, rounded up once. */
export const queryUnits = (items: StoredItem[], o: ReadOptions = {}): number =>
  readUnits(items.reduce((t, i) => t + itemSize(i), 0)) * readFactor(o);
