// The table's stream records (NEW_AND_OLD_IMAGES) as the event catalogue's TableChanges: note META
// items and webhook items; every other record is ignored (the event source's filter already drops
// most of them).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { notesKeys } from '../../data/keys.ts';
import type { NoteState, TableChange } from '../events/catalogue.ts';
import { toWebhook } from './dynamo-webhooks.ts';
import { toRecord } from './note-items.ts';

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

export function changesOf(records: DynamoDBRecord[]): TableChange[] {
  const out: TableChange[] = [];
  for (const r of records) {
    const before = read(r.dynamodb?.OldImage);
    const after = read(r.dynamodb?.NewImage);
    const item = after ?? before;
    const id = `msg_${r.eventID ?? r.dynamodb?.SequenceNumber}`;
    if (item?.type === 'note' && item.SK === META_SK)
      out.push({ kind: 'note', id, before: noteState(before), after: noteState(after) });
    else if (item?.type === 'webhook')
      out.push({
        kind: 'webhook',
        id,
        before: before && toWebhook(before),
        after: after && toWebhook(after),
      });
  }
  return out;
}
