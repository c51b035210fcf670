// The index store on S3 and DynamoDB: each generation of a segment of a workspace's index is an
// SQLite database file under search/ in the bucket (never served: the public image path reads notes/
// only); the workspace's head item (lib/data/keys.ts, searchKeys) names each segment's current one, in
// an attribute per segment (`f00`..`f07`), so a search reads every segment's head in one request (the
// `sNN` attributes of the earlier MiniSearch segments are not read: `npm run admin -- search upgrade`
// rebuilds such a workspace and removes them). A writer puts its object under a fresh name, then
// moves its segment's attribute with a condition on the generation it read (so of two concurrent
// writers of a segment one wins and the other retries on the winner's index; writers of different
// segments never conflict), then deletes the object it replaced.
// No object's name can be guessed (defence in depth: nothing serves search/, but a name alone must
// not be enough to read a private index): a segment's name carries 128 random bits, and a rebuild's
// checkpoint (`rebuild-<128 random bits>.json.gz`) is named by the head item's `checkpoint`
// attribute. A checkpoint of an earlier version, at the fixed name `rebuild.json.gz`, is still read
// (a rebuild stopped before an upgrade resumes) and deleted with the next one.
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../../data/failures.ts';
import { searchKeys } from '../../../data/keys.ts';
import { s3Client } from '../../../data/s3.ts';
import type { Workspace } from '../model.ts';
import type { IndexHead, IndexStore } from '../ports.ts';

const zip = promisify(gzip);
const unzip = promisify(gunzip);
/** BatchGetItem reads at most 100 keys. */
const BATCH_KEYS = 100;

const folder = (workspace: Workspace) => `search/${encodeURIComponent(workspace)}/`;
/** The head item's attribute of a segment. */
const attribute = (segment: number) => `f${String(segment).padStart(2, '0')}`;
const SEGMENT_ATTRIBUTE = /^f(\d\d)$/;
/** Random bits in each object's name: 128, as many as a random UUID's. */
const unguessable = () => randomBytes(16).toString('base64url');
/** Where an earlier version kept a rebuild's checkpoint (a fixed, guessable name): read, then deleted. */
const legacyCheckpointKey = (workspace: Workspace) => `${folder(workspace)}rebuild.json.gz`;
/** The head item's attribute naming the rebuild's checkpoint object. */
const CHECKPOINT = 'checkpoint';

async function getObject(key: string, gzipped: boolean): Promise<Uint8Array | undefined> {
  try {
    const obj = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    const body = await obj.Body!.transformToByteArray();
    return gzipped ? await unzip(body) : body;
  } catch (err) {
    if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

/**
 * A segment is stored as it is: compressing it (gzip, fastest level: half the size) would cost an
 * edit 75 ms of CPU and a cold search 23 ms per segment to inflate again — 0.6 s of a 512 MB
 * function's third of a vCPU for a workspace of 10,000 notes — to save S3 a few cents a month.
 */
const putSegment = (key: string, data: Uint8Array) =>
  s3Client().send(
    new PutObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      Body: data,
      ContentType: 'application/vnd.sqlite3',
    }),
  );

/** A rebuild's checkpoint (JSON, written once per 2,000 notes read) is gzipped. */
const putCheckpoint = async (key: string, data: Uint8Array): Promise<void> => {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      Body: await zip(data, { level: constants.Z_BEST_SPEED }),
      ContentType: 'application/json',
      ContentEncoding: 'gzip',
    }),
  );
};

const deleteObject = (key: string) =>
  s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: key }));

export async function indexHeads(workspaces: Workspace[]): Promise<Map<Workspace, IndexHead[]>> {
  const out = new Map<Workspace, IndexHead[]>();
  for (let i = 0; i < workspaces.length; i += BATCH_KEYS) {
    let keys: Record<string, unknown>[] | undefined = workspaces
      .slice(i, i + BATCH_KEYS)
      .map((w) => ({ ...searchKeys.index(w) }));
    while (keys?.length) {
      const r: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const item of r.Responses?.[config.tableName] ?? []) {
        const workspace = item.workspace as Workspace;
        const heads: IndexHead[] = [];
        for (const [name, value] of Object.entries(item)) {
          const segment = SEGMENT_ATTRIBUTE.exec(name);
          if (!segment) continue;
          const { generation, location, notes } = value as Record<string, unknown>;
          heads.push({
            workspace,
            segment: Number(segment[1]),
            generation: Number(generation),
            location: String(location),
            notes: Number(notes),
          });
        }
        out.set(workspace, heads);
      }
      keys = r.UnprocessedKeys?.[config.tableName]?.Keys;
    }
  }
  return out;
}

export const loadIndex = (head: IndexHead) => getObject(head.location, false);

export async function saveIndex(
  workspace: Workspace,
  segment: number,
  previous: IndexHead | undefined,
  data: Uint8Array,
  notes: number,
): Promise<IndexHead | undefined> {
  const generation = (previous?.generation ?? 0) + 1;
  const location = `${folder(workspace)}${attribute(segment)}-${generation}-${unguessable()}.sqlite`;
  await putSegment(location, data);
  const head: IndexHead = { workspace, segment, generation, location, notes };
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: searchKeys.index(workspace),
        UpdateExpression: 'SET #type = :type, #workspace = :workspace, #segment = :head',
        ConditionExpression: previous ? '#segment.generation = :previous' : 'attribute_not_exists(#segment)',
        ExpressionAttributeNames: {
          '#type': 'type',
          '#workspace': 'workspace',
          '#segment': attribute(segment),
        },
        ExpressionAttributeValues: {
          ':type': 'search-index',
          ':workspace': workspace,
          ':head': { generation, location, notes },
          ...(previous ? { ':previous': previous.generation } : {}),
        },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
    await deleteObject(location);
    return undefined;
  }
  if (previous) await deleteObject(previous.location);
  return head;
}

/** The name of the workspace's rebuild checkpoint, if it has one (or its earlier, fixed name). */
async function checkpointOf(workspace: Workspace): Promise<string> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: config.tableName,
      Key: searchKeys.index(workspace),
      ProjectionExpression: '#checkpoint',
      ExpressionAttributeNames: { '#checkpoint': CHECKPOINT },
      ConsistentRead: true,
    }),
  );
  return typeof Item?.[CHECKPOINT] === 'string' ? Item[CHECKPOINT] : legacyCheckpointKey(workspace);
}

/** Names the checkpoint's object in the head (`key`, or none), and answers the one it named before. */
async function nameCheckpoint(workspace: Workspace, key: string | undefined): Promise<string | undefined> {
  const { Attributes } = await documentClient()
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: searchKeys.index(workspace),
        UpdateExpression: key
          ? 'SET #type = :type, #workspace = :workspace, #checkpoint = :key'
          : 'REMOVE #checkpoint',
        ExpressionAttributeNames: {
          '#checkpoint': CHECKPOINT,
          ...(key ? { '#type': 'type', '#workspace': 'workspace' } : {}),
        },
        ...(key
          ? { ExpressionAttributeValues: { ':type': 'search-index', ':workspace': workspace, ':key': key } }
          : {}),
        // Removing from a head that does not exist creates nothing.
        ...(key ? {} : { ConditionExpression: 'attribute_exists(PK)' }),
        ReturnValues: 'UPDATED_OLD',
      }),
    )
    .catch((err) => {
      if (isConditionFailure(err)) return { Attributes: undefined };
      throw storeFailure(err);
    });
  const before = Attributes?.[CHECKPOINT];
  return typeof before === 'string' ? before : undefined;
}

/** A new checkpoint under a fresh name; the one it replaces (and any at the earlier fixed name) deleted. */
async function saveCheckpoint(workspace: Workspace, data: Uint8Array): Promise<void> {
  const key = `${folder(workspace)}rebuild-${unguessable()}.json.gz`;
  await putCheckpoint(key, data);
  const before = await nameCheckpoint(workspace, key);
  await deleteObject(before ?? legacyCheckpointKey(workspace));
}

async function dropCheckpoint(workspace: Workspace): Promise<void> {
  const before = await nameCheckpoint(workspace, undefined);
  if (before) await deleteObject(before);
  await deleteObject(legacyCheckpointKey(workspace));
}

/** What a search reads: heads and indexes (its bundle holds no write). */
export const s3IndexReader: Pick<IndexStore, 'heads' | 'load'> = { heads: indexHeads, load: loadIndex };

export const s3IndexStore: IndexStore = {
  heads: indexHeads,
  load: loadIndex,
  save: saveIndex,
  loadCheckpoint: async (workspace) => getObject(await checkpointOf(workspace), true),
  saveCheckpoint,
  dropCheckpoint,
};
