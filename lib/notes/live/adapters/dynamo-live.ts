// DynamoDB adapter of live editing's stores (keys in lib/data/keys.ts, live section):
//   LIVETICKET#<sha256> / TICKET          a ticket until taken (DeleteItem returning it) or its TTL
//   LIVECONN#<connectionId> / CONN        a connection, found by its id ($default, $disconnect)
//   LIVE#<shortId> / CONN#<connectionId>  the same, among the note's connections (relays)
//   LIVEUSER#<userId> / CONN#<id>         the same, among the user's connections (team removal,
//                                         a revoked token: each connection keeps its token's `tokenHash`)
//   LIVE#<shortId> / AWARE#<clientId>     which connection (`connectionId`, `userId`) owns a Yjs client
//                                         id's awareness; LIVECONN# keeps the connection's ids (`clientIds`)
//   LIVE#<shortId> / ROOM                 `room`, what the content may still grow by, and `reserved`, every
//                                         growing update's bytes (the content limit under concurrency)
//   LIVE#<shortId> / HEAD                 `rev` and the compacted state: inline (`state`) when at most
//                                         INLINE_STATE_BYTES, else `stateKey`, an object in S3 (s3-live-states.ts)
//   LIVE#<shortId> / U#<time>#<rand>      one accepted update (a few bytes to 64 KB), `by` its writer,
//                                         `type` live-update (the stream's filter passes these to the flush)
// Small often-written items (updates) apart from the large rarely-written one (HEAD, at compaction).
// One exported function per port method; classes at the end gather them for tests and the CLI.
import { randomBytes } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { MAX_CONTENT_BYTES } from '../../kernel/model.ts';
import { documentClient, queryAll } from '../../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../../data/failures.ts';
import { identityKeys, liveKeys as k } from '../../../data/keys.ts';
import {
  INLINE_STATE_BYTES,
  type LiveAccess,
  type LiveConnection,
  type RateKind,
  type Ticket,
} from '../model.ts';
import type {
  ConnectionStore,
  DocStore,
  LiveTokens,
  StoredDoc,
  StoredUpdate,
  TicketStore,
} from '../ports.ts';
import { deleteState, getState, putState } from './s3-live-states.ts';

type Item = Record<string, unknown>;
const table = () => config.tableName;

// ---- tickets ----
export async function putTicket(t: Ticket): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: { ...k.ticket(t.hash), ...t, ttl: Math.ceil(t.expiresAt / 1000) + 60 },
    }),
  );
}

/** Single use: the conditional delete returns the ticket to one taker only. */
export async function takeTicket(hash: string): Promise<Ticket | undefined> {
  let out: { Attributes?: Item };
  try {
    out = await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: k.ticket(hash),
        ConditionExpression: 'attribute_exists(PK)',
        ReturnValues: 'ALL_OLD',
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw storeFailure(err);
  }
  const a = out.Attributes;
  if (!a) return undefined;
  return {
    hash,
    userId: a.userId as string,
    noteId: a.noteId as string,
    shortId: a.shortId as string,
    expiresAt: a.expiresAt as number,
    ...(typeof a.tokenHash === 'string' ? { tokenHash: a.tokenHash } : {}),
  };
}

/** Whether the API token is still there (not revoked): a strongly consistent GetItem of its key. */
export async function tokenValid(tokenHash: string): Promise<boolean> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: identityKeys.token(tokenHash),
      ConsistentRead: true,
      ProjectionExpression: 'PK',
    }),
  );
  return out.Item !== undefined;
}

// ---- connections ----
const connectionOf = (a: Item): LiveConnection => ({
  connectionId: a.connectionId as string,
  userId: a.userId as string,
  noteId: a.noteId as string,
  shortId: a.shortId as string,
  teamPath: (a.teamPath as string | null) ?? null,
  access: a.access as LiveAccess,
  connectedAt: a.connectedAt as number,
  ...(typeof a.tokenHash === 'string' ? { tokenHash: a.tokenHash } : {}),
  ...(a.clientIds instanceof Set ? { clientIds: [...(a.clientIds as Set<number>)].map(Number) } : {}),
  ...clocksOf(a),
  ...(a.closed ? { closed: true } : {}),
});
/** An awareness clock is kept per client id as its own attribute (`ac_<id>`), so one SET replaces it. */
const CLOCK_PREFIX = 'ac_';
function clocksOf(a: Item): { clocks?: Record<number, number> } {
  const entries = Object.entries(a).filter(([name]) => name.startsWith(CLOCK_PREFIX));
  if (entries.length === 0) return {};
  return {
    clocks: Object.fromEntries(entries.map(([n, v]) => [Number(n.slice(CLOCK_PREFIX.length)), Number(v)])),
  };
}
const copiesOf = (c: LiveConnection) => [
  k.connection(c.connectionId),
  k.noteConnection(c.shortId, c.connectionId),
  k.userConnection(c.userId, c.connectionId),
];
/** A connection lives at most API Gateway's 2 hours: its items expire a little after. */
const CONNECTION_TTL_SECONDS = 2 * 3600 + 600;

/** A connection's attributes as stored (its client ids a number set, which ADD extends). */
const attributesOf = ({ clientIds, clocks, ...c }: LiveConnection): Item => ({
  ...c,
  ...(clientIds?.length ? { clientIds: new Set(clientIds) } : {}),
  ...Object.fromEntries(Object.entries(clocks ?? {}).map(([id, clock]) => [`${CLOCK_PREFIX}${id}`, clock])),
});

async function putCopies(c: LiveConnection): Promise<void> {
  const ttl = Math.ceil(c.connectedAt / 1000) + CONNECTION_TTL_SECONDS;
  await documentClient().send(
    new BatchWriteCommand({
      RequestItems: {
        [table()]: copiesOf(c).map((key) => ({ PutRequest: { Item: { ...key, ...attributesOf(c), ttl } } })),
      },
    }),
  );
}
export const addConnection = putCopies;

export async function getConnection(connectionId: string): Promise<LiveConnection | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.connection(connectionId) }),
  );
  return out.Item && connectionOf(out.Item);
}

/**
 * `add` messages counted: one UpdateItem replaces the connection's GetItem, ADD to the kind's counter
 * if the item is in this window (ALL_NEW returns the connection and the count). The first write of a
 * window fails that condition and starts the window with a second, conditional UpdateItem; concurrent
 * first writes race on it, and the losers count again (as the API tokens' rate limit does). `add` 0
 * (no clocks): a strongly consistent GetItem, the count as stored (0 in another window).
 */
export async function countMessage(
  connectionId: string,
  kind: RateKind,
  windowStart: number,
  clocks: Record<number, number> = {},
  add = 1,
): Promise<{ connection: LiveConnection; count: number } | undefined> {
  const ids = Object.keys(clocks);
  if (add === 0 && ids.length === 0) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: k.connection(connectionId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const count = Item[`rl_${kind}_w`] === windowStart ? Number(Item[`rl_${kind}_n`] ?? 0) : 0;
    return { connection: connectionOf(Item), count };
  }
  // An awareness message's clocks ride on the counting write (no more units: the item stays small).
  const clockSets = ids.map((_, i) => `#c${i} = :c${i}`);
  const names: Record<string, string> = {
    '#w': `rl_${kind}_w`,
    '#n': `rl_${kind}_n`,
    ...Object.fromEntries(ids.map((id, i) => [`#c${i}`, `${CLOCK_PREFIX}${id}`])),
  };
  const clockValues = Object.fromEntries(ids.map((id, i) => [`:c${i}`, clocks[Number(id)]]));
  const setClocks = clockSets.length ? `SET ${clockSets.join(', ')} ` : '';
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: k.connection(connectionId),
          UpdateExpression: `${setClocks}ADD #n :add`,
          ConditionExpression: '#w = :w',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':add': add, ':w': windowStart, ...clockValues },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { connection: connectionOf(Attributes!), count: Number(Attributes![names['#n']]) };
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      if (!(err as { Item?: unknown }).Item) return undefined; // no such connection
    }
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: k.connection(connectionId),
          UpdateExpression: ['SET #w = :w, #n = :add', ...clockSets].join(', '),
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#w) OR #w < :w)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':add': add, ':w': windowStart, ...clockValues },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { connection: connectionOf(Attributes!), count: add };
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      // Another message started the window (or the connection went): count again.
    }
  }
  return undefined;
}

export async function removeConnection(c: LiveConnection): Promise<void> {
  await documentClient().send(
    new BatchWriteCommand({
      RequestItems: { [table()]: copiesOf(c).map((Key) => ({ DeleteRequest: { Key } })) },
    }),
  );
}

/** How long a closed connection's record stays (its queued messages are applied meanwhile). */
const CLOSED_TTL_SECONDS = 5 * 60;

/** $disconnect: the note's and user's copies go; the one by id stays, `closed`, a few minutes. */
export async function markConnectionClosed(c: LiveConnection): Promise<void> {
  const [byId, ...listed] = copiesOf(c);
  const ttl = Math.ceil(Date.now() / 1000) + CLOSED_TTL_SECONDS;
  await documentClient().send(
    new BatchWriteCommand({
      RequestItems: {
        [table()]: [
          { PutRequest: { Item: { ...byId, ...attributesOf(c), closed: true, ttl } } },
          ...listed.map((Key) => ({ DeleteRequest: { Key } })),
        ],
      },
    }),
  );
}

export async function connectionsOfNote(shortId: string): Promise<LiveConnection[]> {
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': k.docPartition(shortId), ':sk': k.connectionPrefix },
  });
  return items.map(connectionOf);
}

/** Strongly consistent: a revocation or team removal finds a connection added just before it. */
export async function connectionsOfUser(userId: string): Promise<LiveConnection[]> {
  const items = await queryAll({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': k.userPartition(userId) },
  });
  return items.map(connectionOf);
}

export const setConnectionAccess = (c: LiveConnection, access: LiveAccess): Promise<void> =>
  putCopies({ ...c, access });

/**
 * Each id: a conditional PutItem of its claim (no holder, this connection, or the same user's);
 * the ids won: one UpdateItem ADDs them to the connection's item (what $default reads).
 */
export async function claimClientIds(c: LiveConnection, clientIds: number[]): Promise<number[]> {
  const ttl = Math.ceil(Date.now() / 1000) + CONNECTION_TTL_SECONDS;
  const won: number[] = [];
  await Promise.all(
    clientIds.map(async (clientId) => {
      try {
        await documentClient().send(
          new PutCommand({
            TableName: table(),
            Item: {
              ...k.awarenessClaim(c.shortId, clientId),
              connectionId: c.connectionId,
              userId: c.userId,
              ttl,
            },
            ConditionExpression: 'attribute_not_exists(PK) OR connectionId = :c OR userId = :u',
            ExpressionAttributeValues: { ':c': c.connectionId, ':u': c.userId },
          }),
        );
        won.push(clientId);
      } catch (err) {
        if (!isConditionFailure(err)) throw storeFailure(err);
      }
    }),
  );
  if (won.length === 0) return won;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.connection(c.connectionId),
        UpdateExpression: 'ADD clientIds :ids',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':ids': new Set(won) },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err); // gone meanwhile: nothing to keep
  }
  return won;
}

/** Which of the connection's client ids it still owns: a strongly consistent GetItem of each claim. */
export async function ownedClientIds(c: LiveConnection): Promise<number[]> {
  const held = await Promise.all(
    (c.clientIds ?? []).map(async (clientId) => {
      const out = await documentClient().send(
        new GetCommand({
          TableName: table(),
          Key: k.awarenessClaim(c.shortId, clientId),
          ConsistentRead: true,
          ProjectionExpression: 'connectionId',
        }),
      );
      return out.Item?.connectionId === c.connectionId ? [clientId] : [];
    }),
  );
  return held.flat();
}

/** The connections holding these client ids in the note: a strongly consistent GetItem of each claim. */
export async function claimHolders(shortId: string, clientIds: number[]): Promise<string[]> {
  const held = await Promise.all(
    clientIds.map(async (clientId) => {
      const out = await documentClient().send(
        new GetCommand({
          TableName: table(),
          Key: k.awarenessClaim(shortId, clientId),
          ConsistentRead: true,
          ProjectionExpression: 'connectionId',
        }),
      );
      return typeof out.Item?.connectionId === 'string' ? [out.Item.connectionId] : [];
    }),
  );
  return held.flat();
}

// ---- documents ----
const updateOf = (a: Item): StoredUpdate => ({
  key: a.SK as string,
  update: a.update as Uint8Array,
  by: a.by as string,
  ...(typeof a.rest === 'number' ? { rest: a.rest } : {}),
  ...(typeof a.grown === 'number' ? { grown: a.grown } : {}),
});

async function stateOf(head: Item): Promise<Uint8Array> {
  if (head.stateKey) return getState(head.stateKey as string);
  return head.state as Uint8Array;
}

/** HEAD and the updates (one Query from HEAD on: the connections sort before it). */
export async function loadDoc(
  shortId: string,
  opts: { consistent?: boolean } = {},
): Promise<StoredDoc | undefined> {
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'PK = :pk AND SK >= :head',
    ExpressionAttributeValues: { ':pk': k.docPartition(shortId), ':head': k.head(shortId).SK },
    ConsistentRead: opts.consistent,
  });
  const head = items.find((i) => i.SK === k.head(shortId).SK);
  if (!head) return undefined;
  const updates = items.filter((i) => (i.SK as string).startsWith(k.updatePrefix)).map(updateOf);
  const restVersion = typeof head.restVersion === 'number' ? head.restVersion : 0;
  const settled = typeof head.settled === 'number' ? head.settled : 0;
  return { rev: head.rev as number, state: await stateOf(head), updates, restVersion, settled };
}

/** The revision (HEAD's `rev` only) and the updates since: what a warm copy lacks. */
export async function recentUpdates(
  shortId: string,
): Promise<{ rev: number; updates: StoredUpdate[] } | undefined> {
  const [head, items] = await Promise.all([
    documentClient().send(
      new GetCommand({ TableName: table(), Key: k.head(shortId), ProjectionExpression: 'rev' }),
    ),
    queryAll({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :u)',
      ExpressionAttributeValues: { ':pk': k.docPartition(shortId), ':u': k.updatePrefix },
    }),
  ]);
  if (!head.Item) return undefined;
  return { rev: head.Item.rev as number, updates: items.map(updateOf) };
}

/** HEAD's attributes for a state: inline when small, else an S3 object (written first). */
async function stateAttributes(shortId: string, rev: number, state: Uint8Array): Promise<Item> {
  if (state.length <= INLINE_STATE_BYTES) return { state };
  const stateKey = k.stateObject(shortId, rev);
  await putState(stateKey, state);
  return { stateKey };
}

export async function createDoc(shortId: string, state: Uint8Array, restVersion: number): Promise<boolean> {
  const attributes = await stateAttributes(shortId, 0, state);
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...k.head(shortId), rev: 0, restVersion, ...attributes },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw storeFailure(err);
  }
}

export async function appendUpdate(
  shortId: string,
  update: Uint8Array,
  by: string,
  marks: { rest?: number; grown?: number } = {},
): Promise<void> {
  const key = k.update(shortId, Date.now(), randomBytes(6).toString('base64url'));
  await documentClient().send(
    new PutCommand({ TableName: table(), Item: { ...key, type: 'live-update', update, by, ...marks } }),
  );
}

/** One UpdateItem of the note's small ROOM item; strict: conditional on the room holding `bytes`. */
export async function reserveRoom(
  shortId: string,
  bytes: number,
  opts: { init: number; strict: boolean; until?: number },
): Promise<boolean> {
  const holds = opts.init >= bytes ? '(attribute_not_exists(room) OR room >= :g)' : 'room >= :g';
  const grant = opts.until !== undefined ? ', grantsUntil = :until' : '';
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.room(shortId),
        UpdateExpression: `SET room = if_not_exists(room, :init) - :g, reserved = if_not_exists(reserved, :zero) + :g${grant}`,
        ...(opts.strict ? { ConditionExpression: holds } : {}),
        ExpressionAttributeValues: {
          ':g': bytes,
          ':init': opts.init,
          ':zero': 0,
          ...(opts.until !== undefined ? { ':until': opts.until } : {}),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw storeFailure(err);
  }
}

/** A grant is given back (calibrateRoom) only this long after its end: its last update is stored by then. */
export const GRANT_SETTLE_MS = 60_000;
/** A calibration that would only give room back is not written while the room is at least this. */
const AMPLE_ROOM = MAX_CONTENT_BYTES / 2;

/**
 * One UpdateItem of ROOM, after a strongly consistent GetItem of it (a read unit): a calibration that would only
 * give room back is left out while the room is ample (what it gives back is written once the room
 * runs low), so a flush of a note far from its limit writes nothing here.
 */
export async function calibrateRoom(shortId: string, base: number, held?: number): Promise<void> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.room(shortId), ConsistentRead: true }),
  );
  const room = typeof Item?.room === 'number' ? Item.room : undefined;
  const reserved = typeof Item?.reserved === 'number' ? Item.reserved : 0;
  const until = typeof Item?.grantsUntil === 'number' ? Item.grantsUntil : undefined;
  // Every grant long past: what they left unused is given back (unless a reservation came meanwhile).
  const settle = held !== undefined && until !== undefined && until + GRANT_SETTLE_MS < Date.now();
  const next = settle ? base - held : base - reserved;
  if (room !== undefined && room >= AMPLE_ROOM && next >= room) return;
  if (settle)
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: k.room(shortId),
          UpdateExpression: 'SET room = :room, reserved = :held REMOVE grantsUntil',
          ConditionExpression: 'grantsUntil = :until AND reserved = :reserved',
          ExpressionAttributeValues: { ':room': next, ':held': held, ':until': until, ':reserved': reserved },
        }),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
    }
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: k.room(shortId),
      UpdateExpression:
        'SET room = :base - if_not_exists(reserved, :zero), reserved = if_not_exists(reserved, :zero)',
      ExpressionAttributeValues: { ':base': base, ':zero': 0 },
    }),
  );
}

/**
 * The merged state becomes revision rev + 1 if HEAD is still at `from.rev` (else false: another
 * compaction won, and this one changes nothing: its S3 object is removed); then only the merged
 * updates are deleted, and the previous S3 object.
 */
export async function compactDoc(
  shortId: string,
  from: { rev: number; keys: string[]; restVersion: number; settled: number },
  state: Uint8Array,
): Promise<boolean> {
  const head = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.head(shortId), ConsistentRead: true }),
  );
  if (!head.Item || head.Item.rev !== from.rev) return false;
  const rev = from.rev + 1;
  const attributes = await stateAttributes(shortId, rev, state);
  // A conditional PutItem (half a one-item transaction's units): the revision read must still be HEAD's.
  let lost = false;
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...k.head(shortId),
          rev,
          restVersion: from.restVersion,
          settled: from.settled,
          ...attributes,
        },
        ConditionExpression: 'rev = :rev',
        ExpressionAttributeValues: { ':rev': from.rev },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
    lost = true;
  }
  if (lost) {
    if (attributes.stateKey) await deleteState(attributes.stateKey as string);
    return false;
  }
  for (let i = 0; i < from.keys.length; i += 25) {
    const Key = (SK: string) => ({ PK: k.docPartition(shortId), SK });
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [table()]: from.keys.slice(i, i + 25).map((sk) => ({ DeleteRequest: { Key: Key(sk) } })),
        },
      }),
    );
  }
  if (head.Item.stateKey) await deleteState(head.Item.stateKey as string);
  return true;
}

/** A purged note's document: every item of its partition, and its S3 state. */
export async function dropDoc(shortId: string): Promise<void> {
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': k.docPartition(shortId) },
    ProjectionExpression: 'PK, SK, stateKey',
  });
  for (let i = 0; i < items.length; i += 25) {
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [table()]: items
            .slice(i, i + 25)
            .map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })),
        },
      }),
    );
  }
  for (const item of items) if (item.stateKey) await deleteState(item.stateKey as string);
}

export class DynamoTickets implements TicketStore {
  put = putTicket;
  take = takeTicket;
}
export class DynamoLiveTokens implements LiveTokens {
  valid = tokenValid;
}
export class DynamoConnections implements ConnectionStore {
  add = addConnection;
  get = getConnection;
  count = countMessage;
  remove = removeConnection;
  close = markConnectionClosed;
  ofNote = connectionsOfNote;
  ofUser = connectionsOfUser;
  setAccess = setConnectionAccess;
  claim = claimClientIds;
  owned = ownedClientIds;
  holders = claimHolders;
}
export class DynamoDocs implements DocStore {
  load = loadDoc;
  recent = recentUpdates;
  create = createDoc;
  append = appendUpdate;
  compact = compactDoc;
  reserve = reserveRoom;
  calibrate = calibrateRoom;
  drop = dropDoc;
}
