// The table's stream records (NEW_AND_OLD_IMAGES) as the event catalogue's TableChanges: note META
// items, webhook items, note versions' metadata and comments; every other record is ignored (the
// event source's filter already drops most of them). `noteStateOf` reads a note's META for the
// changes of its versions and comments. The versions' and comments' items are read back by the
// revisions' own decoders (RevisionDecoders), so this adapter knows no other feature's adapters.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { notesKeys } from '../../../data/keys.ts';
import type { NoteState, TableChange } from '../events/catalogue.ts';
import type { CommentRecord } from '../../revisions/comments.ts';
import type { VersionRecord } from '../../revisions/versions.ts';
import { toWebhook } from './dynamo-webhooks.ts';
import { toRecord } from '../../kernel/adapters/note-items.ts';

type Image = Record<string, AttributeValue> | undefined;
const read = (image: unknown) => (image ? unmarshall(image as NonNullable<Image>) : undefined);
const META_SK = notesKeys.noteMeta('x').SK;

const noteState = (item: Record<string, unknown> | undefined): NoteState | undefined =>
  item
    ? {
        note: toRecord(item),
        ...(item.deletedAt !== undefined ? { deletedAt: Number(item.deletedAt) } : {}),
        ...(item.restoredAt !== undefined ? { restoredAt: Number(item.restoredAt) } : {}),
      }
    : undefined;

/** How the revisions' items read back: their adapters' decoders, handed over by the wiring. */
export interface RevisionDecoders {
  toVersion(item: Record<string, unknown>): VersionRecord;
  toComment(item: Record<string, unknown>): CommentRecord;
}

export function changesOf(
  records: DynamoDBRecord[],
  { toVersion, toComment }: RevisionDecoders,
): TableChange[] {
  const out: TableChange[] = [];
  for (const r of records) {
    const before = read(r.dynamodb?.OldImage);
    const after = read(r.dynamodb?.NewImage);
    const item = after ?? before;
    const id = `msg_${r.eventID ?? r.dynamodb?.SequenceNumber}`;
    const at = (r.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000;
    if (item?.type === 'note' && item.SK === META_SK)
      out.push({ kind: 'note', id, before: noteState(before), after: noteState(after) });
    else if (item?.type === 'webhook')
      out.push({
        kind: 'webhook',
        id,
        before: before && toWebhook(before),
        after: after && toWebhook(after),
      });
    else if (item?.type === 'note-version')
      out.push({
        kind: 'version',
        id,
        at,
        noteShortId: String(item.noteShortId),
        before: before && toVersion(before),
        after: after && toVersion(after),
      });
    else if (item?.type === 'note-comment')
      out.push({
        kind: 'comment',
        id,
        at,
        noteShortId: String(item.noteShortId),
        before: before && toComment(before),
        after: after && toComment(after),
      });
  }
  return out;
}

/** A note's META as the catalogue reads it (one GetItem, eventually consistent); undefined when gone. */
export async function noteStateOf(
  shortId: string,
  { consistent = false } = {},
): Promise<NoteState | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: config.tableName,
      Key: notesKeys.noteMeta(shortId),
      ConsistentRead: consistent,
    }),
  );
  return noteState(Item);
}
