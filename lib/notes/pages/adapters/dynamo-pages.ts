// Note pages' reads in the single table. A page reads the note's META item (strongly consistent)
// before anything large: by its shortId, or through its owner's permalink guards: the user path
// (USERPATH# → user id), then the guards of that user and of the team with that path together
// (PERMALINK#<owner> → note id; a user's guard wins over a team's), then META. When no guard names
// a note, META is read at a key no note has, so an absent permalink and a private note's cost the
// same reads and the same billed units (1 for META, while a note's metadata stays under 4 KB). Each
// read is a GetItem, which bills its minimum whether or not the item exists (DynamoDB Local's
// BatchGetItem bills only the items it found). Only a note guests may read is then read whole,
// through the Notes store's `getNote`, and only when its page is rendered.
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { identityKeys, type Key, notesKeys } from '../../../data/keys.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { shortIdOf, type NoteWithContent } from '../../kernel/model.ts';
import type { NotesStore } from '../../kernel/ports.ts';
import type { PageMeta } from '../model.ts';
import type { PageSource } from '../ports.ts';

/** No shortId has this character: the META read of a permalink that names no note finds nothing. */
const NO_NOTE = '~';

const item = async (key: Key, consistent = false, attributes?: string[]) =>
  (
    await documentClient().send(
      new GetCommand({
        TableName: config.tableName,
        Key: key,
        ConsistentRead: consistent,
        ...(attributes && {
          ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a])),
        }),
      }),
    )
  ).Item;

/** What a page needs of META to decide (the item is billed whole; the answer carries only these). */
const META_ATTRIBUTES = ['shortId', 'version', 'readPermission', 'deletedAt'];

const noteId = (guard: Record<string, unknown> | undefined) =>
  typeof guard?.noteId === 'string' ? guard.noteId : undefined;

/** The pages' reads, reading a whole note through the Notes store's `getNote` (given by the wiring). */
export function dynamoPages(getNote: NotesStore['getNote']): PageSource {
  const metaByShortId = async (shortId: string): Promise<PageMeta | undefined> => {
    const meta = await item(notesKeys.noteMeta(shortId), true, META_ATTRIBUTES);
    if (!meta || meta.deletedAt !== undefined) return undefined;
    return {
      shortId: String(meta.shortId),
      version: Number(meta.version),
      readPermission: meta.readPermission as PageMeta['readPermission'],
    };
  };
  return {
    metaByShortId,
    async metaByPermalink(ownerPath, permalink) {
      const user = await item(identityKeys.userPath(ownerPath));
      const userId = typeof user?.userId === 'string' ? user.userId : undefined;
      const [mine, ours] = await Promise.all([
        userId === undefined
          ? undefined
          : item(notesKeys.permalink({ userId }, permalink), false, ['noteId']),
        item(notesKeys.permalink({ teamPath: ownerPath }, permalink), false, ['noteId']),
      ]);
      const id = noteId(mine) ?? noteId(ours);
      return metaByShortId(id === undefined ? NO_NOTE : shortIdOf(id));
    },
    async note(shortId): Promise<NoteWithContent | undefined> {
      const stored = await getNote(shortId);
      return stored && { note: stored.note, content: stored.content };
    },
  };
}
