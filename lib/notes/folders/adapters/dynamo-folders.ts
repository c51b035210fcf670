// DynamoDB adapter of the folder store. One partition per workspace (keys: lib/data/keys.ts,
// folderKeys): FOLDER#<id> items, the TREE item (structure version) and ORDER#<userId> items.
// Structural writes are transactions with the TREE item's version as their condition. One function
// per port method, so a function's bundle (and role) holds only those its wiring names
// (docs/architecture.md, "Bundles").
import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName } from '../../../data/dynamo.ts';
import { cancellationReasons, isConditionFailure, storeFailure } from '../../../data/failures.ts';
import { folderKeys as k, type NoteOwnerKey } from '../../../data/keys.ts';
import type {
  FolderDeletion,
  FolderFields,
  FolderOrder,
  FolderRecord,
  FolderStore,
  FolderTree,
} from '../folders.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import { toRecord } from '../../kernel/adapters/note-items.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const FIELDS = [
  'id',
  'name',
  'description',
  'icon',
  'color',
  'parentFolderId',
  'createdAt',
  'updatedAt',
] as const;
const toFolder = (i: Item): FolderRecord => ({
  ...(Object.fromEntries(FIELDS.map((f) => [f, i[f] ?? null])) as unknown as FolderRecord),
  noteCount: Number(i.noteCount ?? 0),
});

const reasons = cancellationReasons;
const table = (): string => config.tableName;

/**
 * Every folder of the workspace, the tree version and `orderOf`'s ordering: one Query, strongly
 * consistent (the tree version is the lock of every folder write) unless `consistent: false` (the
 * webhook event router, which only resolves folder scopes).
 */
export async function folderTree(
  owner: NoteOwnerKey,
  orderOf?: string,
  opts: { consistent?: boolean } = {},
): Promise<FolderTree> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      ConsistentRead: opts.consistent ?? true,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': k.folderPartition(owner) },
    }),
  );
  const tree = Items.find((i) => i.SK === k.tree(owner).SK);
  const order = orderOf ? Items.find((i) => i.SK === k.order(owner, orderOf).SK) : undefined;
  return {
    folders: Items.filter((i) => String(i.SK).startsWith(k.folderPrefix)).map(toFolder),
    version: Number(tree?.version ?? 0),
    order: order?.order as FolderOrder | undefined,
  };
}

export async function getFolder(owner: NoteOwnerKey, folderId: string): Promise<FolderRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.folder(owner, folderId) }),
  );
  return Item ? toFolder(Item) : undefined;
}

export function createFolder(owner: NoteOwnerKey, folder: FolderRecord, version: number): Promise<boolean> {
  // Transaction: the tree's version (the lock of every structural change) moves with the new folder.
  return transact([
    bumpTree(owner, version),
    {
      Put: {
        TableName: table(),
        Item: { ...k.folder(owner, folder.id), type: 'folder', ...folder },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ]);
}

export async function updateFolder(
  owner: NoteOwnerKey,
  folderId: string,
  changes: FolderFields & { updatedAt: number },
  version?: number,
): Promise<boolean> {
  const entries = Object.entries(changes).filter(
    ([f, v]) => v !== undefined && (version !== undefined || f !== 'parentFolderId'),
  );
  const update: TransactItem = {
    Update: {
      TableName: table(),
      Key: k.folder(owner, folderId),
      ConditionExpression: 'attribute_exists(PK)',
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    },
  };
  // A move is a structural change: the tree's version moves with it (transaction); a rename is one update.
  return transact(version === undefined ? [update] : [bumpTree(owner, version), update]);
}

export async function deleteFolder(
  owner: NoteOwnerKey,
  folderId: string,
  version: number,
): Promise<FolderDeletion> {
  try {
    // Transaction: the tree's version moves with the folder's removal (and only if it is empty).
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          bumpTree(owner, version),
          {
            Delete: {
              TableName: table(),
              Key: k.folder(owner, folderId),
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              ConditionExpression:
                'attribute_exists(PK) AND (attribute_not_exists(noteCount) OR noteCount = :zero)',
              ExpressionAttributeValues: { ':zero': 0 },
            },
          },
        ],
      }),
    );
    return 'deleted';
  } catch (err) {
    const why = reasons(err);
    if (!why) throw storeFailure(err);
    const items = (err as TransactionCanceledException).CancellationReasons ?? [];
    if (why[1] === 'ConditionalCheckFailed' && why[0] !== 'ConditionalCheckFailed' && items[1]?.Item)
      return 'not-empty';
    if (why.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return 'changed';
    throw storeFailure(err);
  }
}

export async function putFolderOrder(owner: NoteOwnerKey, userId: string, order: FolderOrder): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: { ...k.order(owner, userId), type: 'folder-order', order },
    }),
  );
}

/** The folder's notes, most recently changed first (one bounded Query of GSI3). */
export async function notesInFolder(folderId: string, limit: number): Promise<NoteRecord[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('GSI3'),
      ScanIndexForward: false,
      Limit: limit,
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': k.notesOfFolderPartition(folderId) },
    }),
  );
  return Items.map(toRecord);
}

/** The TREE item moves from `version` to the next (created at 0 → 1). */
function bumpTree(owner: NoteOwnerKey, version: number): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: k.tree(owner),
      UpdateExpression: 'SET version = :next',
      ConditionExpression: version === 0 ? 'attribute_not_exists(version)' : 'version = :v',
      ExpressionAttributeValues: version === 0 ? { ':next': 1 } : { ':next': version + 1, ':v': version },
    },
  };
}

/** All or none; false when a condition failed. One item is one conditional UpdateItem (half the units). */
async function transact(items: TransactItem[]): Promise<boolean> {
  try {
    const only = items.length === 1 ? items[0].Update : undefined;
    if (only) await documentClient().send(new UpdateCommand(only));
    else await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    const why = reasons(err);
    if (why?.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return false;
    throw storeFailure(err);
  }
}

/** Every method, for the admin CLI, the bench and tests; functions wire only what they call. */
export class DynamoFolderStore implements FolderStore {
  tree = folderTree;
  get = getFolder;
  create = createFolder;
  update = updateFolder;
  delete = deleteFolder;
  putOrder = putFolderOrder;
  notesIn = notesInFolder;
}
