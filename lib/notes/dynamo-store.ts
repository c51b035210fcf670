// DynamoDB adapter of the Notes store. Items (keys in lib/data/keys.ts, notes section):
//   NOTE#<shortId> / NOTE#META      the NoteRecord; GSI1 = owner's notes by lastChangedAt
//   NOTE#<shortId> / NOTE#CONTENT   content + visitSeq
//   NOTE#<shortId> / VISIT#<userId> history entry: a snapshot of the note; GSI2 = user's history by time
//   PERMALINK#<owner> / PERMALINK#<permalink>   uniqueness guard
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc } from '../data/clients.ts';
import { completionItem, releaseIdempotencyKey, reserveIdempotencyKey } from '../data/idempotency.ts';
import type { Completion, IdempotencyRecord } from '../domain/idempotency.ts';
import { notesKeys as k, type NoteOwnerKey } from '../data/keys.ts';
import type { NoteRecord } from './model.ts';
import { IdempotencyLeaseLost, PermalinkTakenError, type NotesStore, type StoredNote } from './store.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const NOTE_FIELDS = [
  'id', 'shortId', 'ownerId', 'userPath', 'teamPath', 'title', 'explicitTitle', 'tags', 'description', 'createdAt',
  'lastChangedAt', 'titleUpdatedAt', 'tagsUpdatedAt', 'lastChangeUser', 'publishType', 'publishedAt', 'permalink',
  'readPermission', 'writePermission', 'commentPermission', 'suggestEditPermission', 'parentFolderId', 'origin',
  'noteFeatures', 'version',
] as const satisfies readonly (keyof NoteRecord)[];

const toRecord = (item: Item): NoteRecord => Object.fromEntries(NOTE_FIELDS.map((f) => [f, item[f] ?? null])) as unknown as NoteRecord;
const ownerOf = (note: NoteRecord): NoteOwnerKey => (note.teamPath ? { teamPath: note.teamPath } : { userId: note.ownerId! });
/** TransactWriteItems takes at most 100 items; a delete keeps 3 for META, CONTENT and the permalink guard. */
const TRANSACTION_ITEMS = 100;
const BATCH_WRITE_ITEMS = 25;
const VISIT_ATTEMPTS = 3;

/** Why a transaction was cancelled, per item: 'ConditionalCheckFailed', 'TransactionConflict', 'None', ... */
const cancellation = (err: unknown): string[] | undefined =>
  err instanceof TransactionCanceledException ? (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None') : undefined;

export class DynamoNotesStore implements NotesStore {
  constructor(private readonly table: () => string) {}

  async getNote(shortId: string, opts: { visitors?: boolean } = {}): Promise<StoredNote | undefined> {
    const items = await this.queryPartition(shortId, opts.visitors ? undefined : k.noteItemPrefix);
    const meta = items.find((i) => i.SK === k.noteMeta(shortId).SK);
    const content = items.find((i) => i.SK === k.noteContent(shortId).SK);
    if (!meta || !content) return undefined;
    const stored: StoredNote = { note: toRecord(meta), content: String(content.content ?? ''), visitSeq: Number(content.visitSeq ?? 0) };
    if (opts.visitors) stored.visitorIds = items.filter((i) => i.type === 'note-visit').map((i) => String(i.userId));
    return stored;
  }

  async createNote(note: NoteRecord, content: string, creatorId: string, completion?: Completion): Promise<void> {
    const items: TransactItem[] = [
      { Put: { TableName: this.table(), Item: this.metaItem(note), ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: this.table(), Item: { ...k.noteContent(note.shortId), type: 'note-content', content, visitSeq: 0 } } },
      this.visitPut(note, creatorId),
    ];
    const permalinkIndex = note.permalink ? items.push(this.permalinkPut(note)) - 1 : -1;
    if (completion) items.push(completionItem(this.table(), k.idempotency(completion.userId, completion.keyHash), completion));
    // False: a collision of 60-bit random shortIds (not worth a retry path), or the Idempotency-Key's
    // lease was taken over by a retry while this request ran.
    if (!(await this.transact(items, permalinkIndex))) throw new IdempotencyLeaseLost(`note ${note.shortId} not created`);
  }

  reserveIdempotencyKey(userId: string, keyHash: string, fingerprint: string, leaseId: string, now: number): Promise<IdempotencyRecord | undefined> {
    return reserveIdempotencyKey(this.table(), k.idempotency(userId, keyHash), fingerprint, leaseId, now);
  }

  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    await releaseIdempotencyKey(this.table(), k.idempotency(userId, keyHash), leaseId);
  }

  async saveNote(previous: StoredNote, next: NoteRecord, content: string | undefined, editorId: string): Promise<boolean> {
    const old = previous.note;
    const items: TransactItem[] = [
      { Put: { TableName: this.table(), Item: this.metaItem(next), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': old.version } } },
      this.visitPut(next, editorId),
    ];
    if (content !== undefined) {
      items.push({ Update: { TableName: this.table(), Key: k.noteContent(old.shortId), UpdateExpression: 'SET content = :c', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':c': content } } });
    }
    let permalinkIndex = -1;
    if (next.permalink !== old.permalink) {
      if (old.permalink) items.push({ Delete: { TableName: this.table(), Key: k.permalink(ownerOf(old), old.permalink) } });
      if (next.permalink) { permalinkIndex = items.length; items.push(this.permalinkPut(next)); }
    }
    return this.transact(items, permalinkIndex);
  }

  async recordVisit(note: NoteRecord, userId: string): Promise<boolean> {
    // Bumping visitSeq on CONTENT makes a concurrent DeleteNote (conditional on visitSeq) retry, so it
    // sees this entry; the existence condition keeps entries of deleted notes from being written.
    const items: TransactItem[] = [
      { Update: { TableName: this.table(), Key: k.noteContent(note.shortId), UpdateExpression: 'ADD visitSeq :one', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':one': 1 } } },
      this.visitPut(note, userId),
    ];
    for (let attempt = 1; ; attempt += 1) {
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return true;
      } catch (err) {
        const reasons = cancellation(err);
        if (reasons?.[0] === 'ConditionalCheckFailed') return false;
        if (!reasons?.includes('TransactionConflict') || attempt === VISIT_ATTEMPTS) throw err;
      }
    }
  }

  async deleteNote(stored: StoredNote): Promise<boolean> {
    const { note } = stored;
    const visits = (stored.visitorIds ?? []).map((userId) => k.visit(note.shortId, userId));
    const items: TransactItem[] = [
      { Delete: { TableName: this.table(), Key: k.noteMeta(note.shortId), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': note.version } } },
      { Delete: { TableName: this.table(), Key: k.noteContent(note.shortId), ConditionExpression: 'visitSeq = :s', ExpressionAttributeValues: { ':s': stored.visitSeq } } },
    ];
    if (note.permalink) items.push({ Delete: { TableName: this.table(), Key: k.permalink(ownerOf(note), note.permalink) } });
    const inTransaction = TRANSACTION_ITEMS - items.length;
    for (const Key of visits.slice(0, inTransaction)) items.push({ Delete: { TableName: this.table(), Key } });
    if (!(await this.transact(items, -1))) return false;
    // Only notes read by more users than fit in one transaction get here; no new entry can appear now.
    for (let i = inTransaction; i < visits.length; i += BATCH_WRITE_ITEMS) {
      let pending: Record<string, unknown[]> | undefined = { [this.table()]: visits.slice(i, i + BATCH_WRITE_ITEMS).map((Key) => ({ DeleteRequest: { Key } })) };
      while (pending && Object.keys(pending).length) {
        const out = await doc.send(new BatchWriteCommand({ RequestItems: pending as never }));
        pending = out.UnprocessedItems as Record<string, unknown[]> | undefined;
      }
    }
    return true;
  }

  async listNotes(owner: NoteOwnerKey): Promise<NoteRecord[]> {
    const { Items } = await doc.send(new QueryCommand({
      TableName: this.table(), IndexName: 'GSI1', ScanIndexForward: false,
      KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': k.notesOfOwnerPartition(owner) },
    }));
    return (Items ?? []).map(toRecord);
  }

  async history(userId: string, limit: number): Promise<NoteRecord[]> {
    const { Items } = await doc.send(new QueryCommand({
      TableName: this.table(), IndexName: 'GSI2', ScanIndexForward: false, Limit: limit,
      KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': k.visitsOfUserPartition(userId) },
    }));
    return (Items ?? []).map((i) => toRecord(i.note as Item));
  }

  private metaItem(note: NoteRecord): Item {
    return { ...k.noteMeta(note.shortId), ...k.notesOfOwner(ownerOf(note), note.lastChangedAt, note.shortId), type: 'note', ...note };
  }

  private visitPut(note: NoteRecord, userId: string): TransactItem {
    const at = Date.now();
    return { Put: { TableName: this.table(), Item: { ...k.visit(note.shortId, userId), ...k.visitsOfUser(userId, at, note.shortId), type: 'note-visit', userId, visitedAt: at, note } } };
  }

  private permalinkPut(note: NoteRecord): TransactItem {
    return { Put: { TableName: this.table(), Item: { ...k.permalink(ownerOf(note), note.permalink!), type: 'note-permalink', noteId: note.id }, ConditionExpression: 'attribute_not_exists(PK)' } };
  }

  /** Runs a transaction: false when a condition failed or it conflicted; PermalinkTakenError for the guard. */
  private async transact(items: TransactItem[], permalinkIndex: number): Promise<boolean> {
    try {
      await doc.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      const reasons = cancellation(err);
      if (!reasons) throw err;
      if (permalinkIndex >= 0 && reasons[permalinkIndex] === 'ConditionalCheckFailed') throw new PermalinkTakenError('permalink taken');
      if (reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return false;
      throw err;
    }
  }

  private async queryPartition(shortId: string, skPrefix?: string): Promise<Item[]> {
    const items: Item[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new QueryCommand({
        TableName: this.table(), ConsistentRead: true, ExclusiveStartKey,
        KeyConditionExpression: skPrefix ? 'PK = :pk AND begins_with(SK, :sk)' : 'PK = :pk',
        ExpressionAttributeValues: skPrefix ? { ':pk': k.notePartition(shortId), ':sk': skPrefix } : { ':pk': k.notePartition(shortId) },
      }));
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return items;
  }
}
