// Note pages' reads in the single table: a note by its shortId (the Notes store's read), or through
// its owner's permalink guard: the user path (USERPATH# → user id) or the team path, then the guard
// (PERMALINK#<owner> → note id). A user's path is tried before a team's.
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { identityKeys, type Key, notesKeys, type NoteOwnerKey } from '../../../data/keys.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getNote } from '../../adapters/dynamo-notes.ts';
import { shortIdOf, type NoteWithContent } from '../../model.ts';
import type { PageSource } from '../ports.ts';

const item = async (key: Key) =>
  (await documentClient().send(new GetCommand({ TableName: config.tableName, Key: key }))).Item;

const byShortId = async (shortId: string): Promise<NoteWithContent | undefined> => {
  const stored = await getNote(shortId);
  return stored && { note: stored.note, content: stored.content };
};

async function inOwner(owner: NoteOwnerKey, permalink: string) {
  const guard = await item(notesKeys.permalink(owner, permalink));
  return typeof guard?.noteId === 'string' ? byShortId(shortIdOf(guard.noteId)) : undefined;
}

export const dynamoPages: PageSource = {
  byShortId,
  async byPermalink(ownerPath, permalink) {
    const user = await item(identityKeys.userPath(ownerPath));
    const mine =
      typeof user?.userId === 'string' ? await inOwner({ userId: user.userId }, permalink) : undefined;
    return mine ?? inOwner({ teamPath: ownerPath }, permalink);
  },
};
