// DynamoDB adapter of the Notes store. Items (keys in lib/data/keys.ts, notes section):
//   NOTE#<shortId> / NOTE#META      the NoteRecord; GSI1 = owner's notes by lastChangedAt
//   NOTE#<shortId> / NOTE#CONTENT   content + visitSeq
//   NOTE#<shortId> / VISIT#<userId> history entry: a snapshot of the note; GSI2 = user's history by time
//   PERMALINK#<owner> / PERMALINK#<permalink>   uniqueness guard
// One exported function per port method (NotesStore, and the IdempotencyStore of Notes creates), so
// a function's bundle and role hold only the ones its wiring getter names (lib/notes/wiring.ts).
import {
  BatchWriteCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.ts';
import { documentClient, indexName, queryAll } from '../../data/dynamo.ts';
import { cancellationReasons as cancellation, storeFailure } from '../../data/failures.ts';
import { folderKeys, notesKeys as k, type NoteOwnerKey } from '../../data/keys.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { completionUpdate, DynamoIdempotency } from '../../data/idempotency.ts';
import type { Completion, IdempotencyStore } from '../../domain/idempotency.ts';
import type { NoteRecord } from '../model.ts';
import type { NotesStore, StoredNote } from '../ports.ts';
import { folderCountUpdate } from './dynamo-folders.ts';
import { toRecord } from './note-items.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const ownerOf = (note: NoteRecord): NoteOwnerKey =>
  note.teamPath ? { teamPath: note.teamPath } : { userId: note.ownerId! };
/** TransactWriteItems takes at most 100 items; a delete keeps 3 for META, CONTENT and the permalink guard. */
const TRANSACTION_ITEMS = 100;
const BATCH_WRITE_ITEMS = 25;
const VISIT_ATTEMPTS = 3;

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
  const content = items.find((i) => i.SK === k.noteContent(shortId).SK);
  if (!meta || !content || meta.deletedAt !== undefined) return undefined; // absent or in the trash
  const stored: StoredNote = {
    note: toRecord(meta),
    content: String(content.content ?? ''),
    visitSeq: Number(content.visitSeq ?? 0),
  };
  if (opts.visitors)
    stored.visitorIds = items.filter((i) => i.type === 'note-visit').map((i) => String(i.userId));
  return stored;
}

export async function createNote(
  note: NoteRecord,
  content: string,
  creatorId: string,
  completion?: Completion,
): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: metaItem(note),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: table(),
        Item: { ...k.noteContent(note.shortId), type: 'note-content', content, visitSeq: 0 },
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
  await transact(items, permalinkIndex, folderIndex);
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
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: metaItem(next),
        // The webhook marker too (NoteRecord.hooked): a first webhook's stamp since the read makes
        // this a lost race (retried on the fresh note), never an overwrite that drops the stamp.
        ConditionExpression: `version = :v AND ${old.hooked ? 'hooked = :hooked' : 'attribute_not_exists(hooked)'}`,
        ExpressionAttributeValues: { ':v': old.version, ...(old.hooked ? { ':hooked': true } : {}) },
      },
    },
    visitPut(next, editorId),
  ];
  if (content !== undefined) {
    items.push({
      Update: {
        TableName: table(),
        Key: k.noteContent(old.shortId),
        UpdateExpression: 'SET content = :c',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':c': content },
      },
    });
  }
  let permalinkIndex = -1;
  if (next.permalink !== old.permalink) {
    if (old.permalink)
      items.push({ Delete: { TableName: table(), Key: k.permalink(ownerOf(old), old.permalink) } });
    if (next.permalink) {
      permalinkIndex = items.length;
      items.push(permalinkPut(next));
    }
  }
  await transact(items, permalinkIndex, folderMoves(items, old, next));
}

export async function recordVisit(note: NoteRecord, userId: string): Promise<void> {
  // Bumping visitSeq on CONTENT makes a concurrent DeleteNote (conditional on visitSeq) retry, so it
  // sees this entry; the existence condition keeps entries of deleted notes from being written.
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: k.noteContent(note.shortId),
        UpdateExpression: 'ADD visitSeq :one',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletedAt)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    visitPut(note, userId),
  ];
  for (let attempt = 1; ; attempt += 1) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      const reasons = cancellation(err);
      if (reasons?.[0] === 'ConditionalCheckFailed') throw new NotFound('The note does not exist');
      if (!reasons?.includes('TransactionConflict') || attempt === VISIT_ATTEMPTS) throw storeFailure(err);
    }
  }
}

export async function deleteNote(stored: StoredNote): Promise<void> {
  const { note } = stored;
  const visits = (stored.visitorIds ?? []).map((userId) => k.visit(note.shortId, userId));
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: table(),
        Key: k.noteMeta(note.shortId),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': note.version },
      },
    },
    {
      Delete: {
        TableName: table(),
        Key: k.noteContent(note.shortId),
        ConditionExpression: 'visitSeq = :s',
        ExpressionAttributeValues: { ':s': stored.visitSeq },
      },
    },
  ];
  if (note.permalink)
    items.push({ Delete: { TableName: table(), Key: k.permalink(ownerOf(note), note.permalink) } });
  const inTransaction = TRANSACTION_ITEMS - items.length;
  for (const Key of visits.slice(0, inTransaction)) items.push({ Delete: { TableName: table(), Key } });
  await transact(items, -1);
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
      Item: {
        ...k.visit(note.shortId, userId),
        ...k.visitsOfUser(userId, at, note.shortId),
        type: 'note-visit',
        userId,
        visitedAt: at,
        note,
      },
    },
  };
}

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
  deleteNote = deleteNote;
  listNotes = listNotes;
  history = history;
  reserveIdempotencyKey = reserveIdempotencyKey;
  releaseIdempotencyKey = releaseIdempotencyKey;
}
