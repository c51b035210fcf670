// The carried live window of a note (lib/notes/webhooks/events/live-window.ts): a window whose check
// found a later window's write left its event to that one, and keeps here the note before it, so
// the later event's `changes` count from there. One small item per note (webhookKeys.carriedWindow),
// written only when a check hands its event on, read by each check, deleted once announced; its TTL
// clears one whose later window never closed (the note trashed meanwhile: its note.deleted said it).
// Plain functions, so a bundle keeps only the commands its function sends.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../../data/failures.ts';
import { webhookKeys as k } from '../../../data/keys.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import type { LiveWindow } from '../events/live-window.ts';

/** A carried window outlives the window that takes it over by far. */
const CARRIED_TTL_SECONDS = 3600;

const quietly = async (write: Promise<unknown>): Promise<void> => {
  try {
    await write;
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
  }
};

export async function carriedWindow(shortId: string): Promise<LiveWindow | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: config.tableName, Key: k.carriedWindow(shortId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return { shortId, endsAt: Item.endsAt as number, before: JSON.parse(Item.before as string) as NoteRecord };
}

/** Kept unless an earlier window is (the earliest handed-on window counts). */
export const carryWindow = (w: LiveWindow): Promise<void> =>
  quietly(
    documentClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          ...k.carriedWindow(w.shortId),
          endsAt: w.endsAt,
          before: JSON.stringify(w.before),
          ttl: Math.ceil(w.endsAt / 1000) + CARRIED_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR endsAt > :e',
        ExpressionAttributeValues: { ':e': w.endsAt },
      }),
    ),
  );

/** Announced: it goes, unless another window was carried since. */
export const dropCarriedWindow = (shortId: string, endsAt: number): Promise<void> =>
  quietly(
    documentClient().send(
      new DeleteCommand({
        TableName: config.tableName,
        Key: k.carriedWindow(shortId),
        ConditionExpression: 'endsAt = :e',
        ExpressionAttributeValues: { ':e': endsAt },
      }),
    ),
  );
