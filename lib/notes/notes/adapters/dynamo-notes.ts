// DynamoDB adapter of the Notes store. Items (keys in lib/data/keys.ts, notes section):
//   NOTE#<shortId> / NOTE#META      the NoteRecord; GSI1 = owner's notes by lastChangedAt
//   NOTE#<shortId> / NOTE#CONTENT   content slot A: `z` (Brotli, packed-content.ts) when that is
//                                   smaller, else `content` (the UTF-8 text); `v`, the META version
//                                   it was written for; a write bills its stored size
//   NOTE#<shortId> / NOTE#CONTENT#B content slot B, the same shape; META's `contentSlot` says which
//                                   slot is the note's content (absent: A)
//   NOTE#<shortId> / NOTE#VISITS    visitSeq (bumped after each history entry is written), deletedAt
//                                   once trashed; absent until the first visit (seq 0)
//   NOTE#<shortId> / VISIT#<userId> history entry: what the history listing shows of the note
//                                   (HISTORY_FIELDS); GSI2 = user's history by time
// A history entry is written with plain single-item writes (no transaction, whatever the note's
// size): the entry, then the counter's bump, conditional on the note not being trashed. A delete
// (trash) reads the counter with the note's visitors and its transaction is conditional on it, so
// an entry written before the bump is either seen by the delete (which then strips it) or makes
// the delete retry; an entry whose bump fails is taken back by its writer.
//   PERMALINK#<owner> / PERMALINK#<permalink>   uniqueness guard
// Content is written once, never inside a transaction (which bills each item twice): a create puts
// slot A, a content change puts the slot META does not name, then the note's transaction points
// META at it. Until that transaction commits no reader sees the new content: readers take the slot
// META names, and the trash and its purge work from META. The slot's PutItem is conditional: the
// slot was written for an older version (`v`), or longer ago (`at`) than a function runs
// (PENDING_MS), so a racing writer's content, whose transaction may still commit, is never replaced
// (the loser is Conflict('version') and retries on the fresh note). A write whose transaction is
// cancelled takes its slot back (DeleteItem, conditional on its own token `w`); one cut off in
// between (the function died) leaves a slot no META names: a change's is the other slot, which the
// next content change overwrites, a create's an item nothing reads (docs/notes.md, "Decisions").
// One exported function per port method (NotesStore, and the IdempotencyStore of Notes creates), so
// a function's bundle and role hold only the ones its wiring getter names (lib/notes/notes/wiring.ts).
import { randomBytes } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName, queryAll } from '../../../data/dynamo.ts';
import {
  cancellationReasons as cancellation,
  isConditionFailure,
  storeFailure,
} from '../../../data/failures.ts';
import {
  type ContentSlot,
  folderKeys,
  type Key,
  notesKeys as k,
  type NoteOwnerKey,
} from '../../../data/keys.ts';
import { Conflict, NotFound } from '../../../domain/errors.ts';
import { completionUpdate, DynamoIdempotency } from '../../../data/idempotency.ts';
import type { Completion, IdempotencyStore } from '../../../domain/idempotency.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import type { NotesStore, StoredNote } from '../../kernel/ports.ts';
import {
  contentOf,
  folderCountUpdate,
  slotOf,
  toRecord,
  visitItem,
  visitsUnchanged,
} from '../../kernel/adapters/note-items.ts';
import { pack } from '../../kernel/adapters/packed-content.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const ownerOf = (note: NoteRecord): NoteOwnerKey =>
  note.teamPath ? { teamPath: note.teamPath } : { userId: note.ownerId! };
/** TransactWriteItems takes at most 100 items; a delete keeps 3 for META, CONTENT and the permalink guard. */
const TRANSACTION_ITEMS = 100;
const BATCH_WRITE_ITEMS = 25;
/**
 * Longer than any function runs (the longest Timeout in template.yaml is 60 s): a content slot
 * written for the next version this long ago belongs to a write that can no longer commit.
 */
const PENDING_MS = 120_000;
/** How long the counter of a hard-deleted note stays as a tombstone (late visits fail on it). */
const TOMBSTONE_SECONDS = 24 * 3600;

const table = () => config.tableName;
/** Idempotency-Keys of Notes creates, in the Notes key space; built per call, so only the creates bundle it. */
const idempotencyKeys = () => new DynamoIdempotency(k.idempotency);

const changed = () => new Conflict('The note changed meanwhile', { reason: 'version' });
const permalinkTaken = () => new Conflict('The permalink is taken', { reason: 'permalink' });

/** META and CONTENT (and the visitors when asked), strongly consistent; undefined if absent or in the trash. */
export async function getNote(
  shortId: string,
  opts: { visitors?: boolean } = {},
): Promise<StoredNote | undefined> {
  const items = await queryPartition(shortId, opts.visitors ? undefined : k.noteItemPrefix);
  const meta = items.find((i) => i.SK === k.noteMeta(shortId).SK);
  const slot = meta && slotOf(meta);
  const content = items.find((i) => i.SK === k.noteContent(shortId, slot).SK);
  const visits = items.find((i) => i.SK === k.noteVisits(shortId).SK);
  if (!meta || !content || meta.deletedAt !== undefined) return undefined; // absent or in the trash
  const stored: StoredNote = {
    note: toRecord(meta),
    content: contentOf(content),
    visitSeq: visits?.visitSeq === undefined ? undefined : Number(visits.visitSeq),
    ...(slot === 'B' ? { contentSlot: slot } : {}),
  };
  if (opts.visitors)
    stored.visitors = items
      .filter((i) => i.type === 'note-visit')
      .map((i) => ({ userId: String(i.userId), visitedAt: Number(i.visitedAt) }));
  return stored;
}

export async function createNote(
  note: NoteRecord,
  content: string,
  creatorId: string,
  completion?: Completion,
): Promise<void> {
  // The content first, on its own (billed once); no reader sees it before META exists.
  const slot = await putContent(k.noteContent(note.shortId), content, note.version, true);
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: metaItem(note),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    visitPut(note, creatorId),
  ];
  const permalinkIndex = note.permalink ? items.push(permalinkPut(note)) - 1 : -1;
  const folderIndex = folderMoves(items, undefined, note);
  if (completion)
    items.push({
      Update: completionUpdate(k.idempotency(completion.userId, completion.keyHash), completion),
    });
  // A conflict here is a collision of 60-bit random shortIds (not worth a retry path), or the
  // Idempotency-Key taken over by a retry while this request ran.
  // Transaction: META and the creator's history entry (and permalink guard, folder count,
  // Idempotency-Key) appear together or not at all; META makes the content the note's.
  await transact(items, permalinkIndex, folderIndex).catch(slot.takeBack);
}

/** Reserves an Idempotency-Key of a Notes create, in the Notes key space (lib/data/idempotency.ts). */
export function reserveIdempotencyKey(
  userId: string,
  keyHash: string,
  fingerprint: string,
  leaseId: string,
  now: number,
): ReturnType<IdempotencyStore['reserveIdempotencyKey']> {
  return idempotencyKeys().reserveIdempotencyKey(userId, keyHash, fingerprint, leaseId, now);
}

/** Frees the key of a create that failed, so a retry may run. */
export function releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
  return idempotencyKeys().releaseIdempotencyKey(userId, keyHash, leaseId);
}

export async function saveNote(
  previous: StoredNote,
  next: NoteRecord,
  content: string | undefined,
  editorId: string,
): Promise<void> {
  const old = previous.note;
  const slot: ContentSlot | undefined =
    content === undefined ? previous.contentSlot : previous.contentSlot === 'B' ? 'A' : 'B';
  // The new content into the slot META does not name, on its own (billed once).
  const written =
    content === undefined
      ? undefined
      : await putContent(k.noteContent(old.shortId, slot), content, next.version);
  const metaPut = {
    TableName: table(),
    Item: { ...metaItem(next), ...(slot === 'B' ? { contentSlot: slot } : {}) },
    // The webhook marker and the live mark too (NoteRecord.hooked, live): a first webhook's stamp
    // or a live document's mark since the read makes this a lost race (retried on the fresh note),
    // never an overwrite that drops it.
    ConditionExpression: `version = :v AND ${markCondition('hooked', old.hooked)} AND ${markCondition('live', old.live)}`,
    ExpressionAttributeValues: {
      ':v': old.version,
      ...(old.hooked ? { ':hooked': true } : {}),
      ...(old.live ? { ':live': true } : {}),
    },
  };
  const items: TransactItem[] = [{ Put: metaPut }];
  let permalinkIndex = -1;
  if (next.permalink !== old.permalink) {
    if (old.permalink)
      items.push({ Delete: { TableName: table(), Key: k.permalink(ownerOf(old), old.permalink) } });
    if (next.permalink) {
      permalinkIndex = items.length;
      items.push(permalinkPut(next));
    }
  }
  const folderIndex = folderMoves(items, old, next);
  if (items.length > 1 || content !== undefined) {
    // Transaction: META (naming the new content's slot), the permalink guard or the folder counts
    // change together or not at all; the editor's history entry rides along (1 write unit more than
    // a PutItem of its own, one request fewer: the metadata-only path below writes it apart, then
    // takes it back).
    items.push(visitPut(next, editorId));
    await transact(items, permalinkIndex, folderIndex).catch(written?.takeBack ?? rethrow);
    return;
  }
  // Metadata alone (tags, title, permissions): the editor's history entry, then META, each one
  // conditional write. A trash in between fails META's version condition (it bumps the version) or
  // sees the entry (it reads the visitors first and is conditional on META's version); an entry of
  // a write that lost is taken back (a retry writes it again).
  await putVisit(next, editorId);
  try {
    await documentClient().send(new PutCommand(metaPut));
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
    await takeBackVisit(k.visit(old.shortId, editorId));
    throw changed();
  }
}

/** Sets META's `live` mark (NoteRecord.live); NotFound when the note is gone or in the trash. */
export async function markLive(shortId: string): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.noteMeta(shortId),
        UpdateExpression: 'SET live = :t',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletedAt)',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFound('The note does not exist');
    throw storeFailure(err);
  }
}

/**
 * Writes the caller's history entry (NotFound when the note is, or meanwhile was, trashed or
 * deleted): the entry, then the counter's bump. Two single-item writes, no transaction.
 */
export async function recordVisit(note: NoteRecord, userId: string): Promise<void> {
  await putVisit(note, userId);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.noteVisits(note.shortId),
        UpdateExpression: 'ADD visitSeq :one',
        ConditionExpression: 'attribute_not_exists(deletedAt)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
    // Trashed or deleted since the read, by a delete that may not have seen this entry.
    await takeBackVisit(k.visit(note.shortId, userId));
    throw new NotFound('The note does not exist');
  }
}

/** The history entry; NotFound when the note's entries are trashed (they carry `ttl`, never overwritten). */
async function putVisit(note: NoteRecord, userId: string): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        ...visitPut(note, userId).Put!,
        ConditionExpression: 'attribute_not_exists(#ttl)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFound('The note does not exist');
    throw storeFailure(err);
  }
}

/** Deletes an entry this call wrote, unless a trash has seen it since (it then carries `ttl`, for a restore). */
async function takeBackVisit(Key: Key): Promise<void> {
  await documentClient()
    .send(
      new DeleteCommand({
        TableName: table(),
        Key,
        ConditionExpression: 'attribute_not_exists(#ttl)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
      }),
    )
    .catch((e) => {
      if (!isConditionFailure(e)) throw storeFailure(e);
    });
}

export async function deleteNote(stored: StoredNote): Promise<void> {
  const { note } = stored;
  const visits = (stored.visitors ?? []).map((v) => k.visit(note.shortId, v.userId));
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: table(),
        Key: k.noteMeta(note.shortId),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': note.version },
      },
    },
    { Delete: { TableName: table(), Key: k.noteContent(note.shortId, stored.contentSlot) } },
    // The counter stays a while as a tombstone, so a read that found the note before cannot add an
    // entry after; conditional on the counter as read, so an entry written meanwhile makes this retry.
    {
      Update: {
        TableName: table(),
        Key: k.noteVisits(note.shortId),
        UpdateExpression: 'SET deletedAt = :at, #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ...visitsUnchanged(stored.visitSeq),
        ExpressionAttributeValues: {
          ...visitsUnchanged(stored.visitSeq).ExpressionAttributeValues,
          ':at': Date.now(),
          ':ttl': Math.ceil(Date.now() / 1000) + TOMBSTONE_SECONDS,
        },
      },
    },
  ];
  if (note.permalink)
    items.push({ Delete: { TableName: table(), Key: k.permalink(ownerOf(note), note.permalink) } });
  const inTransaction = TRANSACTION_ITEMS - items.length;
  for (const Key of visits.slice(0, inTransaction)) items.push({ Delete: { TableName: table(), Key } });
  // Transaction: the note's items go together, conditional on its version and visit counter.
  await transact(items, -1);
  // The other content slot, which no reader sees (a PutItem outside the transaction bills it once).
  await documentClient().send(
    new DeleteCommand({
      TableName: table(),
      Key: k.noteContent(note.shortId, stored.contentSlot === 'B' ? 'A' : 'B'),
    }),
  );
  // Only notes read by more users than fit in one transaction get here; no new entry can appear now.
  for (let i = inTransaction; i < visits.length; i += BATCH_WRITE_ITEMS) {
    let pending: Record<string, unknown[]> | undefined = {
      [table()]: visits.slice(i, i + BATCH_WRITE_ITEMS).map((Key) => ({ DeleteRequest: { Key } })),
    };
    while (pending && Object.keys(pending).length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: pending as never }));
      pending = out.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
}

export async function listNotes(owner: NoteOwnerKey): Promise<NoteRecord[]> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('GSI1'),
      ScanIndexForward: false,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': k.notesOfOwnerPartition(owner) },
    }),
  );
  return (Items ?? []).map(toRecord);
}

export async function history(userId: string, limit: number): Promise<NoteRecord[]> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('GSI2'),
      ScanIndexForward: false,
      Limit: limit,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': k.visitsOfUserPartition(userId) },
    }),
  );
  return (Items ?? []).map((i) => toRecord(i.note as Item));
}

/** The content as a content slot stores it: compressed when that is smaller (markdown shrinks 3×). */
function stored(content: string): { z: Uint8Array } | { content: string } {
  const z = pack(content);
  return z.length < Buffer.byteLength(content, 'utf8') ? { z } : { content };
}

/**
 * One PutItem of a content slot, written for META `version` (`fresh`: a create's, which no item may
 * hold yet); Conflict('version') when another writer's content may still be made current. Returns
 * the rejection handler of the transaction that makes it current: a cancelled one (not a timeout,
 * after which it may have committed) takes the slot back, so a retry may write it at once.
 */
async function putContent(
  Key: Key,
  content: string,
  version: number,
  fresh = false,
): Promise<{ takeBack: (err: unknown) => Promise<never> }> {
  const w = randomBytes(9).toString('base64url');
  const at = Date.now();
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...Key, type: 'note-content', v: version, w, at, ...stored(content) },
        ...(fresh
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : {
              ConditionExpression:
                'attribute_not_exists(v) OR v < :v OR attribute_not_exists(#at) OR #at < :stale',
              ExpressionAttributeNames: { '#at': 'at' },
              ExpressionAttributeValues: { ':v': version, ':stale': at - PENDING_MS },
            }),
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw changed();
    throw storeFailure(err);
  }
  return {
    takeBack: async (err) => {
      if (err instanceof Conflict || cancellation(err))
        await documentClient()
          .send(
            new DeleteCommand({
              TableName: table(),
              Key,
              ConditionExpression: 'w = :w',
              ExpressionAttributeValues: { ':w': w },
            }),
          )
          .catch(() => undefined);
      throw err;
    },
  };
}

const rethrow = (err: unknown): never => {
  throw err;
};

const markCondition = (name: 'hooked' | 'live', set: true | undefined) =>
  set ? `${name} = :${name}` : `attribute_not_exists(${name})`;

function metaItem(note: NoteRecord): Item {
  const folder = note.parentFolderId
    ? folderKeys.notesOfFolder(note.parentFolderId, note.lastChangedAt, note.shortId)
    : {};
  return {
    ...k.noteMeta(note.shortId),
    ...k.notesOfOwner(ownerOf(note), note.lastChangedAt, note.shortId),
    ...folder,
    type: 'note',
    ...note,
  };
}

/** Counts the note out of its old folder and into its new one; the index of the latter, or -1. */
function folderMoves(items: TransactItem[], old: NoteRecord | undefined, next: NoteRecord): number {
  if (old?.parentFolderId === next.parentFolderId) return -1;
  if (old?.parentFolderId) items.push(folderCountUpdate(table(), ownerOf(old), old.parentFolderId, -1));
  if (!next.parentFolderId) return -1;
  items.push(folderCountUpdate(table(), ownerOf(next), next.parentFolderId, 1));
  return items.length - 1;
}

function visitPut(note: NoteRecord, userId: string): TransactItem {
  const at = Date.now();
  return {
    Put: {
      TableName: table(),
      Item: { ...visitItem(note, userId, at), ...k.visitsOfUser(userId, at, note.shortId) },
    },
  };
}

/** A history entry without its GSI2 keys (those list it in the reader's history). */
function permalinkPut(note: NoteRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...k.permalink(ownerOf(note), note.permalink!), type: 'note-permalink', noteId: note.id },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/**
 * Runs a transaction: Conflict('permalink') for the guard, Conflict('folder') when the folder the
 * note enters does not exist, Conflict('version') when another condition failed or it conflicted.
 */
async function transact(items: TransactItem[], permalinkIndex: number, folderIndex = -1): Promise<void> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    const reasons = cancellation(err);
    if (!reasons) throw storeFailure(err);
    if (permalinkIndex >= 0 && reasons[permalinkIndex] === 'ConditionalCheckFailed') throw permalinkTaken();
    if (folderIndex >= 0 && reasons[folderIndex] === 'ConditionalCheckFailed')
      throw new Conflict('No such folder', { reason: 'folder' });
    if (reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) throw changed();
    throw err;
  }
}

async function queryPartition(shortId: string, skPrefix?: string): Promise<Item[]> {
  return queryAll({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: skPrefix ? 'PK = :pk AND begins_with(SK, :sk)' : 'PK = :pk',
    ExpressionAttributeValues: skPrefix
      ? { ':pk': k.notePartition(shortId), ':sk': skPrefix }
      : { ':pk': k.notePartition(shortId) },
  });
}

/**
 * Every method, for the full service (admin CLI, seed, bench, contract tests). No function creates it:
 * each wiring getter names only the functions its operation calls (docs/architecture.md, "Bundles").
 */
export class DynamoNotesStore implements NotesStore, IdempotencyStore {
  getNote = getNote;
  createNote = createNote;
  saveNote = saveNote;
  recordVisit = recordVisit;
  markLive = markLive;
  deleteNote = deleteNote;
  listNotes = listNotes;
  history = history;
  reserveIdempotencyKey = reserveIdempotencyKey;
  releaseIdempotencyKey = releaseIdempotencyKey;
}
