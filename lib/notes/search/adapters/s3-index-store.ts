// The index store on S3 and DynamoDB: each generation of a workspace's index is a gzipped object
// under search/ in the bucket (never served: the public image path reads notes/ only); the head item
// (lib/data/keys.ts, searchKeys) names the current one. A writer puts its object under a fresh name,
// then moves the head with a condition on the generation it read (so of two concurrent writers one
// wins and the other retries on the winner's index), then deletes the object it replaced.
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchGetCommand, type BatchGetCommandOutput, PutCommand } from '@aws-sdk/lib-dynamodb';
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
const checkpointKey = (workspace: Workspace) => `${folder(workspace)}rebuild.json.gz`;

async function getObject(key: string): Promise<string | undefined> {
  try {
    const obj = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    return (await unzip(await obj.Body!.transformToByteArray())).toString('utf8');
  } catch (err) {
    if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

async function putObject(key: string, data: string): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      Body: await zip(data),
      ContentType: 'application/json',
      ContentEncoding: 'gzip',
    }),
  );
}

const deleteObject = (key: string) =>
  s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: key }));

export async function indexHeads(workspaces: Workspace[]): Promise<Map<Workspace, IndexHead>> {
  const out = new Map<Workspace, IndexHead>();
  for (let i = 0; i < workspaces.length; i += BATCH_KEYS) {
    let keys: Record<string, unknown>[] | undefined = workspaces
      .slice(i, i + BATCH_KEYS)
      .map((w) => ({ ...searchKeys.index(w) }));
    while (keys?.length) {
      const r: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const item of r.Responses?.[config.tableName] ?? [])
        out.set(item.workspace as Workspace, {
          workspace: item.workspace as Workspace,
          generation: Number(item.generation),
          location: String(item.location),
          notes: Number(item.notes),
        });
      keys = r.UnprocessedKeys?.[config.tableName]?.Keys;
    }
  }
  return out;
}

export const loadIndex = (head: IndexHead) => getObject(head.location);

export async function saveIndex(
  workspace: Workspace,
  previous: IndexHead | undefined,
  data: string,
  notes: number,
): Promise<IndexHead | undefined> {
  const generation = (previous?.generation ?? 0) + 1;
  const location = `${folder(workspace)}${generation}-${randomBytes(6).toString('base64url')}.json.gz`;
  await putObject(location, data);
  const head: IndexHead = { workspace, generation, location, notes };
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...searchKeys.index(workspace), type: 'search-index', ...head },
        ConditionExpression: previous ? 'generation = :previous' : 'attribute_not_exists(PK)',
        ...(previous ? { ExpressionAttributeValues: { ':previous': previous.generation } } : {}),
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

/** What a search reads: heads and indexes (its bundle holds no write). */
export const s3IndexReader: Pick<IndexStore, 'heads' | 'load'> = { heads: indexHeads, load: loadIndex };

export const s3IndexStore: IndexStore = {
  heads: indexHeads,
  load: loadIndex,
  save: saveIndex,
  loadCheckpoint: (workspace) => getObject(checkpointKey(workspace)),
  saveCheckpoint: (workspace, data) => putObject(checkpointKey(workspace), data),
  dropCheckpoint: async (workspace) => {
    await deleteObject(checkpointKey(workspace));
  },
};
