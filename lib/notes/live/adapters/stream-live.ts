// What a batch of the table's stream records asks of live editing: the notes whose live document got
// updates (flush them into the note), the notes whose access may have changed (permissions, owner's
// team, trashed, restored, deleted: recheck their connections), and the users who left a team
// (either membership item removed: recheck theirs).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { identityKeys, liveKeys, notesKeys } from '../../../data/keys.ts';

const META_SK = notesKeys.noteMeta('x').SK;
const LIVE_PREFIX = liveKeys.docPartition('');
const NOTE_PREFIX = notesKeys.notePartition('');
const TEAM_PREFIX = identityKeys.teamPartition('');
const USER_PREFIX = identityKeys.userPartition('');
type Image = Record<string, AttributeValue>;
const read = (image: unknown) => (image ? unmarshall(image as Image) : undefined);
/** What decides who may open a note. */
const accessOf = (item: Record<string, unknown> | undefined) =>
  item &&
  JSON.stringify([item.readPermission, item.writePermission, item.ownerId, item.teamPath, item.deletedAt]);

export interface LiveChanges {
  flush: Set<string>;
  recheckNotes: Set<string>;
  recheckUsers: Set<string>;
  /** Notes purged for good (their META removed): their live documents go too. */
  purged: Set<string>;
}

export function liveChangesOf(records: DynamoDBRecord[]): LiveChanges {
  const out: LiveChanges = {
    flush: new Set(),
    recheckNotes: new Set(),
    recheckUsers: new Set(),
    purged: new Set(),
  };
  for (const r of records) {
    const pk = r.dynamodb?.Keys?.PK?.S ?? '';
    const sk = r.dynamodb?.Keys?.SK?.S ?? '';
    if (pk.startsWith(LIVE_PREFIX) && sk.startsWith(liveKeys.updatePrefix) && r.eventName === 'INSERT')
      out.flush.add(pk.slice(LIVE_PREFIX.length));
    else if (sk === META_SK && r.eventName !== 'INSERT') {
      const before = read(r.dynamodb?.OldImage);
      const after = read(r.dynamodb?.NewImage);
      if (!after || accessOf(before) !== accessOf(after)) out.recheckNotes.add(pk.slice(NOTE_PREFIX.length));
      if (!after) out.purged.add(pk.slice(NOTE_PREFIX.length));
    } else if (
      pk.startsWith(TEAM_PREFIX) &&
      sk.startsWith(identityKeys.memberPrefix) &&
      r.eventName === 'REMOVE'
    )
      out.recheckUsers.add(sk.slice(identityKeys.memberPrefix.length));
    // The user-side item too: access reads it, so whichever of the two goes last must recheck.
    else if (
      pk.startsWith(USER_PREFIX) &&
      sk.startsWith(identityKeys.memberPrefix) &&
      r.eventName === 'REMOVE'
    )
      out.recheckUsers.add(pk.slice(USER_PREFIX.length));
  }
  return out;
}
