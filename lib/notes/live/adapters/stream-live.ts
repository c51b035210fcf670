// What a batch of the table's stream records asks of live editing: the notes whose live document got
// updates (flush them into the note), the notes whose access may have changed (permissions, owner's
// team, trashed, restored, deleted: recheck their connections), and the users who left a team
// (either membership item removed: recheck theirs), and the API tokens revoked (their item removed:
// close the connections their tickets opened).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { identityKeys, liveKeys, notesKeys } from '../../../data/keys.ts';
import type { StreamTask } from '../stream-work.ts';

const META_SK = notesKeys.noteMeta('x').SK;
const LIVE_PREFIX = liveKeys.docPartition('');
const NOTE_PREFIX = notesKeys.notePartition('');
const TEAM_PREFIX = identityKeys.teamPartition('');
const USER_PREFIX = identityKeys.userPartition('');
const TOKEN_KEY = identityKeys.token('');
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
  /** API tokens revoked (their item removed): SHA-256 → the token's user. */
  revokedTokens: Map<string, string>;
  /** Per `note <shortId>` or `user <userId>`: the lowest sequence number of its records. */
  firstSeq: Map<string, string>;
}

export function liveChangesOf(records: DynamoDBRecord[]): LiveChanges {
  const out: LiveChanges = {
    flush: new Set(),
    recheckNotes: new Set(),
    recheckUsers: new Set(),
    purged: new Set(),
    revokedTokens: new Map(),
    firstSeq: new Map(),
  };
  const seen = (key: string, r: DynamoDBRecord) => {
    const seq = r.dynamodb?.SequenceNumber ?? '0';
    if (!out.firstSeq.has(key)) out.firstSeq.set(key, seq); // records come in stream order
  };
  for (const r of records) {
    const pk = r.dynamodb?.Keys?.PK?.S ?? '';
    const sk = r.dynamodb?.Keys?.SK?.S ?? '';
    if (pk.startsWith(LIVE_PREFIX) && sk.startsWith(liveKeys.updatePrefix) && r.eventName === 'INSERT') {
      out.flush.add(pk.slice(LIVE_PREFIX.length));
      seen(`note ${pk.slice(LIVE_PREFIX.length)}`, r);
    } else if (sk === META_SK && r.eventName !== 'INSERT') {
      const before = read(r.dynamodb?.OldImage);
      const after = read(r.dynamodb?.NewImage);
      const shortId = pk.slice(NOTE_PREFIX.length);
      if (!after || accessOf(before) !== accessOf(after)) out.recheckNotes.add(shortId);
      if (!after) out.purged.add(shortId);
      seen(`note ${shortId}`, r);
    } else if (
      pk.startsWith(TEAM_PREFIX) &&
      sk.startsWith(identityKeys.memberPrefix) &&
      r.eventName === 'REMOVE'
    ) {
      const userId = sk.slice(identityKeys.memberPrefix.length);
      out.recheckUsers.add(userId);
      seen(`user ${userId}`, r);
    }
    // The user-side item too: access reads it, so whichever of the two goes last must recheck.
    else if (
      pk.startsWith(USER_PREFIX) &&
      sk.startsWith(identityKeys.memberPrefix) &&
      r.eventName === 'REMOVE'
    ) {
      const userId = pk.slice(USER_PREFIX.length);
      out.recheckUsers.add(userId);
      seen(`user ${userId}`, r);
    } else if (pk.startsWith(TOKEN_KEY.PK) && sk === TOKEN_KEY.SK && r.eventName === 'REMOVE') {
      const tokenHash = pk.slice(TOKEN_KEY.PK.length);
      const userId = read(r.dynamodb?.OldImage)?.userId;
      if (typeof userId !== 'string') continue;
      out.revokedTokens.set(tokenHash, userId);
      seen(`token ${tokenHash}`, r);
    }
  }
  return out;
}

/** What the live service does for a batch (LiveService's stream side). */
export interface StreamSide {
  flush(shortId: string): Promise<void>;
  recheck(affected: { shortId?: string; userId?: string }): Promise<void>;
  purged(shortId: string): Promise<void>;
  revoked(token: { tokenHash: string; userId: string }): Promise<void>;
}

/** The batch's work, one task per note (flush, recheck, purge, in that order), per user and per token. */
export function streamTasksOf(changes: LiveChanges, live: StreamSide): StreamTask[] {
  const notes = new Set([...changes.flush, ...changes.recheckNotes, ...changes.purged]);
  const tasks: StreamTask[] = [...notes].map((shortId) => ({
    what: `note ${shortId}`,
    seq: changes.firstSeq.get(`note ${shortId}`) ?? '0',
    run: async () => {
      if (changes.flush.has(shortId)) await live.flush(shortId);
      if (changes.recheckNotes.has(shortId)) await live.recheck({ shortId });
      if (changes.purged.has(shortId)) await live.purged(shortId);
    },
  }));
  for (const userId of changes.recheckUsers)
    tasks.push({
      what: `user ${userId}`,
      seq: changes.firstSeq.get(`user ${userId}`) ?? '0',
      run: () => live.recheck({ userId }),
    });
  for (const [tokenHash, userId] of changes.revokedTokens)
    tasks.push({
      what: `token ${tokenHash.slice(0, 8)}…`,
      seq: changes.firstSeq.get(`token ${tokenHash}`) ?? '0',
      run: () => live.revoked({ tokenHash, userId }),
    });
  return tasks;
}
