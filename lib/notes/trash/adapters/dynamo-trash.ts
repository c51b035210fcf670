// DynamoDB adapter of the trash. Trashing is one transaction over the note's items (the same shape
// as the former hard delete): META is re-keyed from the owner's list (GSI1) to the owner's trash
// (GSI1) and the expiry index (GSI2), leaves its folder (GSI3, folder noteCount -1); the visit
// counter (VISITS) gets deletedAt (so no new history entry can be written; conditional on the
// counter as read, so an entry written since makes the trash retry); META, VISITS and the permalink
// guard get `ttl` (DynamoDB TTL removes them; the table's stream then runs the purge, which deletes
// the rest of the partition, CONTENT included, and the images). CONTENT is not written: rewriting
// it would cost its size twice over. Right after the transaction, before the deleting call
// answers, the history entries lose their GSI2 keys (out of GetHistory) and get the same `ttl`
// (BatchWriteItem: outside the transaction each costs half); they get their keys back on restore.
// One function per port method, so
// a function's bundle (and role) holds only those its wiring names (docs/architecture.md, "Bundles").
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '../../../config.ts';
import { documentClient, indexName, queryAll } from '../../../data/dynamo.ts';
import { cancellationReasons, storeFailure } from '../../../data/failures.ts';
import {
  folderKeys,
  notesKeys as k,
  revisionKeys as r,
  trashKeys as t,
  type Key,
  type NoteOwnerKey,
} from '../../../data/keys.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import type { StoredNote } from '../../kernel/ports.ts';
import type { TrashedNote, TrashStore } from '../trash.ts';
import { folderCountUpdate, toRecord, visitItem, visitsUnchanged } from '../../kernel/adapters/note-items.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const TRANSACTION_ITEMS = 100;
const BATCH_WRITE_ITEMS = 25;
/**
 * How long after a trash its history entries may still be being stripped: longer than the deleting
 * function may run (its Timeout, template.yaml), so no strip can land after this.
 */
export const STRIP_BOUND_MS = 60_000;
const ownerOf = (n: NoteRecord): NoteOwnerKey =>
  n.teamPath ? { teamPath: n.teamPath } : { userId: n.ownerId! };
const epochSeconds = (ms: number) => Math.ceil(ms / 1000);
const toTrashed = (i: Item): TrashedNote => ({
  note: toRecord(i),
  deletedAt: Number(i.deletedAt),
  deletedBy: String(i.deletedBy),
  purgeAt: Number(i.purgeAt),
});
const reasons = cancellationReasons;

const table = (): string => config.tableName;

/**
 * DeleteNote: one transaction (TransactWriteItems: META, the counter, the guard and the folder count
 * change together), then the history entries stripped (BatchWriteItem) before the call answers.
 */
export async function trashNote(stored: StoredNote, entry: Omit<TrashedNote, 'note'>): Promise<boolean> {
  const { note } = stored;
  const ttl = epochSeconds(entry.purgeAt);
  const items: TransactItem[] = [
    update(
      k.noteMeta(note.shortId),
      'SET deletedAt = :at, deletedBy = :by, purgeAt = :purge, #ttl = :ttl, version = :next, ' +
        'GSI1PK = :g1pk, GSI1SK = :g1sk, GSI2PK = :g2pk, GSI2SK = :g2sk REMOVE GSI3PK, GSI3SK',
      'version = :v',
      {
        ':at': entry.deletedAt,
        ':by': entry.deletedBy,
        ':purge': entry.purgeAt,
        ':ttl': ttl,
        ':next': note.version + 1,
        ':v': note.version,
        ...prefixed(t.trashOfOwner(ownerOf(note), entry.deletedAt, note.shortId), ':g1'),
        ...prefixed(t.expiry(entry.purgeAt, note.shortId), ':g2'),
      },
    ),
    visitsUpdate(k.noteVisits(note.shortId), stored.visitSeq, entry.deletedAt, ttl),
  ];
  const COUNTER = 1;
  if (note.permalink)
    items.push(
      update(k.permalink(ownerOf(note), note.permalink), 'SET #ttl = :ttl', 'attribute_exists(PK)', {
        ':ttl': ttl,
      }),
    );
  if (note.parentFolderId) items.push(folderCountUpdate(table(), ownerOf(note), note.parentFolderId, -1));
  const visitors = stored.visitors ?? [];
  // Transaction: META leaves the lists and the counter stops new history entries, together.
  const failed = await transactWithOverflow(items, []);
  if (!failed) {
    await stripVisits(note, visitors, ttl);
    return true;
  }
  // Only the counter moved (reads went on meanwhile): under a steady stream of reads that would
  // never settle. Trash the note with the counter marked whatever its value, then strip the entries
  // written since the visitors were read too: each was written before its counter bump, so before
  // this transaction, and a read whose bump comes after takes its own entry back (dynamo-notes.ts).
  const counterMoved = (r: string | undefined) =>
    r === 'ConditionalCheckFailed' || r === 'TransactionConflict';
  if (!failed.every((r, i) => (i === COUNTER ? counterMoved(r) : r === 'None'))) return false;
  items[COUNTER] = visitsUpdate(k.noteVisits(note.shortId), null, entry.deletedAt, ttl);
  // Transaction: as above, the counter marked whatever its value.
  if (await transactWithOverflow(items, [])) return false;
  const known = new Set(visitors.map((v) => v.userId));
  const late = (await visitEntries(note.shortId))
    .filter((v) => !known.has(String(v.userId)))
    .map((v) => ({ userId: String(v.userId), visitedAt: Number(v.visitedAt) }));
  await stripVisits(note, [...visitors, ...late], ttl);
  return true;
}

/**
 * Takes a trashed note's history entries out of their readers' histories (no GSI2 keys) and gives
 * them the trash's `ttl` (a restore lists them again; a late read's PutItem fails on `ttl`), in
 * BatchWriteItem requests of 25. Not in the trash's transaction, where each would cost twice: the
 * counter already stops new entries, and the deleting call answers only after this.
 */
async function stripVisits(
  note: NoteRecord,
  visitors: { userId: string; visitedAt: number }[],
  ttl: number,
): Promise<void> {
  await batchWrite(
    visitors.map((v) => ({ PutRequest: { Item: { ...visitItem(note, v.userId, v.visitedAt), ttl } } })),
  );
}

/** BatchWriteItem in requests of 25, until nothing is left unprocessed. */
async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_ITEMS) {
    let pending: Record<string, unknown[]> | undefined = {
      [table()]: requests.slice(i, i + BATCH_WRITE_ITEMS),
    };
    while (pending && Object.keys(pending).length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: pending as never }));
      pending = out.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
}

/** A note's history entries (strongly consistent Query of the VISIT# items). */
async function visitEntries(shortId: string): Promise<Item[]> {
  return queryAll({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :visit)',
    ExpressionAttributeValues: { ':pk': k.notePartition(shortId), ':visit': k.visitPrefix },
  });
}

/**
 * The visit counter marked trashed, conditional on its value as read (undefined: no visit counted
 * yet); null: whatever its value.
 */
function visitsUpdate(
  Key: Key,
  visitSeq: number | undefined | null,
  deletedAt: number,
  ttl: number,
): TransactItem {
  const unchanged = visitSeq === null ? undefined : visitsUnchanged(visitSeq);
  const marked = update(Key, 'SET deletedAt = :at, #ttl = :ttl', unchanged?.ConditionExpression ?? '', {
    ...unchanged?.ExpressionAttributeValues,
    ':at': deletedAt,
    ':ttl': ttl,
  });
  if (!unchanged) delete marked.Update!.ConditionExpression;
  return marked;
}

/** A workspace's trash: one Query of GSI1. */
export async function listTrash(owner: NoteOwnerKey, now: number): Promise<TrashedNote[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('GSI1'),
      ScanIndexForward: false,
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'purgeAt > :now',
      ExpressionAttributeValues: { ':pk': t.trashOfOwnerPartition(owner), ':now': now },
    }),
  );
  return Items.map(toTrashed);
}

/** The note's partition (Query), with its history entries for the restore. */
export async function getTrashed(shortId: string, now: number): Promise<TrashedNote | undefined> {
  const items = await partition(shortId);
  const meta = items.find((i) => i.SK === k.noteMeta(shortId).SK);
  if (!meta || meta.deletedAt === undefined || Number(meta.purgeAt) <= now) return undefined;
  const trashed = toTrashed(meta);
  (trashed as TrashedWithVisits).visits = items.filter((i) => i.type === 'note-visit');
  // Trashed before the visit counter existed, CONTENT carries the trash's marks (restore removes them).
  (trashed as TrashedWithVisits).markedContent = items.some(
    (i) => i.SK === k.noteContent(shortId).SK && (i.deletedAt !== undefined || i.ttl !== undefined),
  );
  (trashed as TrashedWithVisits).counted = items.some((i) => i.SK === k.noteVisits(shortId).SK);
  return trashed;
}

/**
 * One transaction (TransactWriteItems: META, the counter, the guard, the folder count and the
 * history entries change together), history entries past its room one UpdateItem each.
 */
export async function restoreTrashed(
  trashed: TrashedNote,
  parentFolderId: string | null,
  now: number,
): Promise<'restored' | 'changed' | 'folder-gone'> {
  const { note } = trashed;
  const owner = ownerOf(note);
  const folder = parentFolderId
    ? folderKeys.notesOfFolder(parentFolderId, note.lastChangedAt, note.shortId)
    : undefined;
  const items: TransactItem[] = [
    update(
      k.noteMeta(note.shortId),
      `SET version = :next, restoredAt = :now, parentFolderId = :folder, GSI1PK = :g1pk, GSI1SK = :g1sk${folder ? ', GSI3PK = :g3pk, GSI3SK = :g3sk' : ''} ` +
        'REMOVE deletedAt, deletedBy, purgeAt, #ttl, GSI2PK, GSI2SK',
      'version = :v AND purgeAt > :now',
      {
        ':next': note.version + 1,
        ':v': note.version,
        ':now': now,
        ':folder': parentFolderId,
        ...prefixed(k.notesOfOwner(owner, note.lastChangedAt, note.shortId), ':g1'),
        ...(folder ? prefixed(folder, ':g3') : {}),
      },
    ),
  ];
  const { markedContent, counted } = trashed as TrashedWithVisits;
  if (markedContent)
    items.push(update(k.noteContent(note.shortId), 'REMOVE deletedAt, #ttl', 'attribute_exists(PK)', {}));
  if (counted)
    items.push(update(k.noteVisits(note.shortId), 'REMOVE deletedAt, #ttl', 'attribute_exists(PK)', {}));
  if (note.permalink)
    items.push(update(k.permalink(owner, note.permalink), 'REMOVE #ttl', 'attribute_exists(PK)', {}));
  const folderIndex = parentFolderId
    ? items.push(folderCountUpdate(table(), owner, parentFolderId, 1)) - 1
    : -1;
  // While the trash's strip of the history entries may still be under way, an entry it has not
  // stripped yet fails the restore (which the service retries), so the strip cannot undo a restore.
  const stripping = now < trashed.deletedAt + STRIP_BOUND_MS;
  const visits = ((trashed as TrashedWithVisits).visits ?? []).map((v) =>
    update(
      k.visit(note.shortId, String(v.userId)),
      'SET GSI2PK = :pk, GSI2SK = :sk REMOVE #ttl',
      stripping ? 'attribute_exists(PK) AND attribute_exists(#ttl)' : 'attribute_exists(PK)',
      prefixed(k.visitsOfUser(String(v.userId), Number(v.visitedAt), note.shortId), ':'),
    ),
  );
  try {
    // Transaction: META, the counter, the guard, the folder count and the history entries come back together.
    return (await transactWithOverflow(items, visits)) ? 'changed' : 'restored';
  } catch (err) {
    if (err instanceof FolderGone && folderIndex >= 0) return 'folder-gone';
    throw storeFailure(err);
  }
}

/** Trashed notes due at `until`: one Query of GSI2 (the admin CLI's sweep). */
export async function dueForPurge(until: number, limit: number): Promise<NoteRecord[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('GSI2'),
      Limit: limit,
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :until',
      ExpressionAttributeValues: { ':pk': t.expiryPartition, ':until': t.expiryUntil(until) },
    }),
  );
  return Items.map(toRecord);
}

/** META (DeleteItem, only if due), then every item left (Query, BatchWriteItem). */
export async function purgeTrashed(note: NoteRecord, now: number): Promise<boolean> {
  try {
    // META goes first, and only if it is (still) due: a restored note is never purged.
    await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: k.noteMeta(note.shortId),
        ConditionExpression: 'attribute_not_exists(PK) OR purgeAt <= :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw storeFailure(err);
  }
  // The note's own items, then its versions' and comments' partitions.
  const keys: Key[] = [
    ...(await partition(note.shortId)),
    ...(await partition(note.shortId, r.versionsPartition(note.shortId))),
    ...(await partition(note.shortId, r.commentsPartition(note.shortId))),
  ].map((i) => ({ PK: String(i.PK), SK: String(i.SK) }));
  if (note.permalink) keys.push(k.permalink(ownerOf(note), note.permalink));
  await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
  return true;
}

function update(
  Key: Key,
  UpdateExpression: string,
  ConditionExpression: string,
  values: Record<string, unknown>,
): TransactItem {
  const usesTtl = UpdateExpression.includes('#ttl');
  return {
    Update: {
      TableName: table(),
      Key,
      UpdateExpression,
      ConditionExpression,
      ...(usesTtl ? { ExpressionAttributeNames: { '#ttl': 'ttl' } } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/**
 * One transaction with `items` and as many history entries as fit; the rest (notes read by more
 * than ~95 users) are updated right after, one by one (the note's own state already decided).
 */
async function transactWithOverflow(
  items: TransactItem[],
  visits: TransactItem[],
): Promise<(string | undefined)[] | undefined> {
  const room = TRANSACTION_ITEMS - items.length;
  const folderIndex = items.findIndex(
    (i) =>
      String(i.Update?.UpdateExpression).startsWith('ADD noteCount :d') &&
      i.Update?.ExpressionAttributeValues?.[':d'] === 1,
  );
  try {
    await documentClient().send(
      new TransactWriteCommand({ TransactItems: [...items, ...visits.slice(0, room)] }),
    );
  } catch (err) {
    const why = reasons(err);
    if (!why) throw storeFailure(err);
    if (folderIndex >= 0 && why[folderIndex] === 'ConditionalCheckFailed') throw new FolderGone();
    if (why.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return why;
    throw storeFailure(err);
  }
  for (const v of visits.slice(room)) await documentClient().send(new UpdateCommand(v.Update as never));
  return undefined;
}

async function partition(shortId: string, pk = k.notePartition(shortId)): Promise<Item[]> {
  return queryAll({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: pk === k.notePartition(shortId) ? undefined : 'PK, SK',
  });
}

/** Every method, for the admin CLI, the bench and tests; functions wire only what they call. */
export class DynamoTrashStore implements TrashStore {
  trash = trashNote;
  list = listTrash;
  get = getTrashed;
  restore = restoreTrashed;
  due = dueForPurge;
  purge = purgeTrashed;
}

type TrashedWithVisits = TrashedNote & { visits?: Item[]; markedContent?: boolean; counted?: boolean };
class FolderGone extends Error {}

/** {GSI1PK, GSI1SK} → {':g1pk': …, ':g1sk': …} (the value names the update expressions use). */
function prefixed(keys: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(keys).map(([name, value]) => [`${prefix}${name.slice(-2).toLowerCase()}`, value]),
  );
}

/**
 * The trashed notes whose META item DynamoDB's TTL removed, from a stream batch of the table
 * (the function's event filter already keeps only those; this re-checks).
 */
export function expiredNotesOf(event: DynamoDBStreamEvent): NoteRecord[] {
  return event.Records.filter((r) => r.eventName === 'REMOVE' && r.dynamodb?.OldImage)
    .map((r) => unmarshall(r.dynamodb!.OldImage as Record<string, AttributeValue>))
    .filter((i) => i.type === 'note' && i.deletedAt !== undefined)
    .map(toRecord);
}
