// DynamoDB adapter of the folder store. One partition per workspace (keys: lib/data/keys.ts,
// folderKeys): FOLDER#<id> items, the TREE item (structure version) and ORDER#<userId> items.
// Structural writes are transactions with the TREE item's version as their condition.
import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.ts';
import { documentClient } from '../../data/dynamo.ts';
import { cancellationReasons, storeFailure } from '../../data/failures.ts';
import { folderKeys as k, type NoteOwnerKey } from '../../data/keys.ts';
import type {
  FolderDeletion,
  FolderFields,
  FolderOrder,
  FolderRecord,
  FolderStore,
  FolderTree,
} from '../folders.ts';
import type { NoteRecord } from '../model.ts';
import { toRecord } from './note-items.ts';

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

export class DynamoFolderStore implements FolderStore {
  private table(): string {
    return config.tableName;
  }

  async tree(owner: NoteOwnerKey, orderOf?: string): Promise<FolderTree> {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: this.table(),
        ConsistentRead: true,
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

  async get(owner: NoteOwnerKey, folderId: string): Promise<FolderRecord | undefined> {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: this.table(), Key: k.folder(owner, folderId) }),
    );
    return Item ? toFolder(Item) : undefined;
  }

  create(owner: NoteOwnerKey, folder: FolderRecord, version: number): Promise<boolean> {
    return this.transact([
      this.bumpTree(owner, version),
      {
        Put: {
          TableName: this.table(),
          Item: { ...k.folder(owner, folder.id), type: 'folder', ...folder },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
  }

  async update(
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
        TableName: this.table(),
        Key: k.folder(owner, folderId),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([f], i) => [`#f${i}`, f])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
      },
    };
    return this.transact(version === undefined ? [update] : [this.bumpTree(owner, version), update]);
  }

  async delete(owner: NoteOwnerKey, folderId: string, version: number): Promise<FolderDeletion> {
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            this.bumpTree(owner, version),
            {
              Delete: {
                TableName: this.table(),
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

  async putOrder(owner: NoteOwnerKey, userId: string, order: FolderOrder): Promise<void> {
    await documentClient().send(
      new PutCommand({
        TableName: this.table(),
        Item: { ...k.order(owner, userId), type: 'folder-order', order },
      }),
    );
  }

  async notesIn(folderId: string, limit: number): Promise<NoteRecord[]> {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: this.table(),
        IndexName: 'GSI3',
        ScanIndexForward: false,
        Limit: limit,
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': k.notesOfFolderPartition(folderId) },
      }),
    );
    return Items.map(toRecord);
  }

  /** The TREE item moves from `version` to the next (created at 0 → 1). */
  private bumpTree(owner: NoteOwnerKey, version: number): TransactItem {
    return {
      Update: {
        TableName: this.table(),
        Key: k.tree(owner),
        UpdateExpression: 'SET version = :next',
        ConditionExpression: version === 0 ? 'attribute_not_exists(version)' : 'version = :v',
        ExpressionAttributeValues: version === 0 ? { ':next': 1 } : { ':next': version + 1, ':v': version },
      },
    };
  }

  private async transact(items: TransactItem[]): Promise<boolean> {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      const why = reasons(err);
      if (why?.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return false;
      throw storeFailure(err);
    }
  }
}

/**
 * Transaction items the notes store adds when a note enters (+1) or leaves (-1) a folder: the
 * folder's noteCount, conditional on the folder existing (so a note never points at a deleted
 * folder, and a folder holding notes cannot be deleted).
 */
export function folderCountUpdate(
  table: string,
  owner: NoteOwnerKey,
  folderId: string,
  delta: 1 | -1,
): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: k.folder(owner, folderId),
      UpdateExpression: 'ADD noteCount :d',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}
