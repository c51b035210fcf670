// DynamoDB adapter of the versions store (lib/notes/revisions/versions.ts). Items (lib/data/keys.ts revisionKeys):
//   NOTEVERSIONS#<shortId> / VERSION#<id>   metadata (type note-version); system versions carry `ttl`
//   NOTEVERSIONS#<shortId> / VBODY#<id>     the content, Brotli-compressed (`z`), same `ttl`; none
//                                           while the version is `shared` (the newest system one:
//                                           its content is the note's CONTENT item), or a stale one
//                                           (a version coalesced into since), overwritten when kept
// The webhook router emits version.created from these items once named (lib/notes/webhooks/events/catalogue.ts).
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { conditional, isConditionFailure, storeFailure, transactionOutcome } from '../../../data/failures.ts';
import { notesKeys, revisionKeys as k, type Key } from '../../../data/keys.ts';
import { Conflict } from '../../../domain/errors.ts';
import {
  kept,
  type LiveContent,
  MAX_NAMED_VERSIONS,
  type VersionRecord,
  type VersionStore,
} from '../versions.ts';
import { pack, unpack } from '../../kernel/adapters/packed-content.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const FIELDS = [
  'id',
  'name',
  'nameSource',
  'description',
  'createdAt',
  'updatedAt',
  'createdBy',
  'authorship',
  'contentHash',
  'bytes',
  'expiresAt',
] as const;
export const toVersion = (i: Item): VersionRecord =>
  Object.fromEntries([
    ...FIELDS.map((f) => [f, i[f] ?? null]),
    ...(i.noteVersion === undefined ? [] : [['noteVersion', Number(i.noteVersion)]]),
    ...(i.shared === true ? [['shared', true]] : []),
  ]) as unknown as VersionRecord;
const ttlOf = (v: VersionRecord) => (v.expiresAt === null ? {} : { ttl: Math.ceil(v.expiresAt / 1000) });
const live = (now: number) => (i: Item) =>
  i.expiresAt === undefined || i.expiresAt === null || Number(i.expiresAt) > now;

/** Whether the transaction committed (false: a condition failed or it conflicted). */
const transact = async (items: TransactItem[]): Promise<boolean> =>
  (await transactionOutcome(documentClient().send(new TransactWriteCommand({ TransactItems: items })))) ===
  undefined;

const table = () => config.tableName;
const metaPut = (shortId: string, v: VersionRecord, condition?: Pick<TransactItem, 'Put'>['Put']) => ({
  Put: {
    TableName: table(),
    Item: { ...k.version(shortId, v.id), type: 'note-version', noteShortId: shortId, ...v, ...ttlOf(v) },
    ...condition,
  },
});
/** The note still at the version whose content is being kept (lib/data/keys.ts notes section). */
const noteAt = (shortId: string, live: LiveContent): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: notesKeys.noteMeta(shortId),
    ConditionExpression: 'version = :v',
    ExpressionAttributeValues: { ':v': live.noteVersion },
  },
});
const bodyPut = (shortId: string, v: VersionRecord, content: string): TransactItem => ({
  Put: {
    TableName: table(),
    Item: { ...k.versionBody(shortId, v.id), type: 'note-version-body', z: pack(content), ...ttlOf(v) },
  },
});
const query = async (shortId: string, limit?: number): Promise<Item[]> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': k.versionsPartition(shortId), ':sk': k.versionPrefix },
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = limit ? undefined : page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};

// One exported function per VersionStore method, so a function's bundle and role hold only the ones
// its wiring getter names (lib/notes/revisions/wiring.ts); dynamoVersionStore() gathers them all.

/** VersionStore.latest */
export async function latestVersion(shortId: string, now: number): Promise<VersionRecord | undefined> {
  // The newest item is the newest version; an expired one means every older system one expired too,
  // but a named one may be older: read on only in that rare case.
  const [newest] = await query(shortId, 1);
  if (!newest) return undefined;
  if (live(now)(newest)) return toVersion(newest);
  const found = (await query(shortId)).find(live(now));
  return found && toVersion(found);
}

/** VersionStore.list */
export async function listVersions(shortId: string, now: number): Promise<VersionRecord[]> {
  return (await query(shortId)).filter(live(now)).map(toVersion);
}

/** VersionStore.get */
export async function getVersion(
  shortId: string,
  versionId: string,
  now: number,
): Promise<VersionRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.version(shortId, versionId), ConsistentRead: true }),
  );
  return Item && live(now)(Item) ? toVersion(Item) : undefined;
}

/** VersionStore.content */
export async function versionContent(shortId: string, versionId: string): Promise<string | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.versionBody(shortId, versionId), ConsistentRead: true }),
  );
  return Item?.z ? unpack(Item.z as Uint8Array) : undefined;
}

/** Counts a named version in, below the cap: the cap holds however many namings race. */
const countNamed = (shortId: string): TransactItem => ({
  Update: {
    TableName: table(),
    Key: k.namedVersions(shortId),
    UpdateExpression: 'ADD named :one',
    ConditionExpression: 'attribute_not_exists(named) OR named < :max',
    ExpressionAttributeValues: { ':one': 1, ':max': MAX_NAMED_VERSIONS },
  },
});
const capReached = () => new Conflict('The note has its most named versions', { reason: 'named_versions' });

const exists = () => new Conflict('The version exists', { reason: 'version' });

/** VersionStore.create */
export async function createVersion(shortId: string, v: VersionRecord, content?: string): Promise<void> {
  const meta = metaPut(shortId, v, { ConditionExpression: 'attribute_not_exists(PK)' } as never);
  if (v.shared) {
    // Shared: its content is the note's, so the metadata alone (one PutItem).
    try {
      await documentClient().send(new PutCommand(meta.Put as never));
    } catch (err) {
      throw isConditionFailure(err) ? exists() : storeFailure(err);
    }
    return;
  }
  // Transaction: the version's metadata and its content appear together (a named one counts into the cap).
  const items = [meta, bodyPut(shortId, v, content ?? '')];
  if (v.nameSource === 'user') items.push(countNamed(shortId));
  const why = await transactionOutcome(
    documentClient().send(new TransactWriteCommand({ TransactItems: items })),
  );
  if (why?.[2] === 'ConditionalCheckFailed') throw capReached();
  if (why) throw exists();
}

/** VersionStore.coalesce: the metadata alone (one PutItem), the version shared from then on. */
export async function coalesceVersion(
  shortId: string,
  previous: VersionRecord,
  next: VersionRecord,
): Promise<boolean> {
  // updatedAt may not move within a millisecond: the note's version orders changes too.
  const put = metaPut(shortId, { ...next, shared: true }, {
    ConditionExpression:
      'nameSource = :system AND updatedAt = :u' +
      (next.noteVersion === undefined
        ? ''
        : ' AND (attribute_not_exists(noteVersion) OR noteVersion <= :nv)'),
    ExpressionAttributeValues: {
      ':system': 'system',
      ':u': previous.updatedAt,
      ...(next.noteVersion === undefined ? {} : { ':nv': next.noteVersion }),
    },
  } as never);
  try {
    await documentClient().send(new PutCommand(put.Put as never));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw storeFailure(err);
  }
}

/** VersionStore.materialize */
export function materializeVersion(shortId: string, v: VersionRecord, live: LiveContent): Promise<boolean> {
  const own = kept(v, live.content);
  // Transaction: the version's metadata and its own content change together, while the note still
  // holds that content.
  return transact([
    metaPut(shortId, own, {
      ConditionExpression: '#shared = :shared AND updatedAt = :u',
      ExpressionAttributeNames: { '#shared': 'shared' },
      ExpressionAttributeValues: { ':shared': true, ':u': v.updatedAt },
    } as never),
    bodyPut(shortId, own, live.content),
    noteAt(shortId, live),
  ]);
}

/** VersionStore.name */
export async function nameVersion(shortId: string, v: VersionRecord, live?: LiveContent): Promise<boolean> {
  const update = (Key: Key, expression: string, extra: Item = {}): TransactItem => ({
    Update: { TableName: table(), Key, UpdateExpression: expression, ...extra } as never,
  });
  // A shared version's content becomes its own (the live content, while the note still holds it).
  const own = live ? ', contentHash = :h, bytes = :b' : '';
  const body: TransactItem = live
    ? bodyPut(shortId, v, live.content)
    : update(k.versionBody(shortId, v.id), 'REMOVE #ttl', {
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
      });
  // Transaction: the version's metadata and its content are kept for good together, counted into the cap.
  const why = await transactionOutcome(
    documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          update(
            k.version(shortId, v.id),
            // `hooked`: the stream filter's webhook marker, as the note has it now (docs/architecture.md).
            'SET #n = :n, nameSource = :user, description = :d, createdBy = :by, expiresAt = :null' +
              `${own}${v.hooked ? ', hooked = :hooked' : ''} REMOVE #ttl, #shared${v.hooked ? '' : ', hooked'}`,
            {
              ConditionExpression: 'nameSource = :system',
              ExpressionAttributeNames: { '#n': 'name', '#ttl': 'ttl', '#shared': 'shared' },
              ExpressionAttributeValues: {
                ':n': v.name,
                ':user': 'user',
                ':d': v.description,
                ':by': v.createdBy,
                ':null': null,
                ':system': 'system',
                ...(live ? { ':h': v.contentHash, ':b': v.bytes } : {}),
                ...(v.hooked ? { ':hooked': true } : {}),
              },
            },
          ),
          body,
          countNamed(shortId),
          ...(live ? [noteAt(shortId, live)] : []),
        ],
      }),
    ),
  );
  if (why?.[2] === 'ConditionalCheckFailed') throw capReached();
  return !why;
}

/** VersionStore.rename */
export async function renameVersion(shortId: string, v: VersionRecord): Promise<void> {
  await conditional(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.version(shortId, v.id),
        UpdateExpression: 'SET #n = :n, description = :d',
        ConditionExpression: 'nameSource = :user',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': v.name, ':d': v.description, ':user': 'user' },
      }),
    ),
  );
}

/** Every method (contract tests, the full service); functions wire only what they call. */
export const dynamoVersionStore = (): VersionStore => ({
  latest: latestVersion,
  list: listVersions,
  get: getVersion,
  content: versionContent,
  create: createVersion,
  coalesce: coalesceVersion,
  materialize: materializeVersion,
  name: nameVersion,
  rename: renameVersion,
});
