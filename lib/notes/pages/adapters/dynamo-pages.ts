// Note pages' reads in the single table: a note by its shortId (the Notes store's read), or through
// its owner's permalink guard: the user path (USERPATH# → user id) or the team path, then the guard
// (PERMALINK#<owner> → note id). A user's path is tried before a team's.
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { identityKeys, type Key, notesKeys, type NoteOwnerKey } from '../../../data/keys.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { shortIdOf, type NoteWithContent } from '../../kernel/model.ts';
import type { NotesStore } from '../../kernel/ports.ts';
import type { PageSource } from '../ports.ts';

const item = async (key: Key) =>
  (await documentClient().send(new GetCommand({ TableName: config.tableName, Key: key }))).Item;

/** The pages' reads, reading a note through the Notes store's `getNote` (given by the wiring). */
export function dynamoPages(getNote: NotesStore['getNote']): PageSource {
  const byShortId = async (shortId: string): Promise<NoteWithContent | undefined> => {
    const stored = await getNote(shortId);
    return stored && { note: stored.note, content: stored.content };
  };
  const inOwner = async (owner: NoteOwnerKey, permalink: string) => {
    const guard = await item(notesKeys.permalink(owner, permalink));
    return typeof guard?.noteId === 'string' ? byShortId(shortIdOf(guard.noteId)) : undefined;
  };
  return {
    byShortId,
    async byPermalink(ownerPath, permalink) {
      const user = await item(identityKeys.userPath(ownerPath));
      const mine =
        typeof user?.userId === 'string' ? await inOwner({ userId: user.userId }, permalink) : undefined;
      return mine ?? inOwner({ teamPath: ownerPath }, permalink);
    },
  };
}
