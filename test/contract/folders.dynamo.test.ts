// Needs DynamoDB Local (started by `npm test`'s global setup).
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { DynamoFolderStore } from '../../lib/notes/folders/adapters/dynamo-folders.ts';
import { folderCountUpdate } from '../../lib/notes/kernel/adapters/note-items.ts';
import { foldersContract } from './folders.ts';

foldersContract('DynamoDB', () => ({
  store: new DynamoFolderStore(),
  placeNote: async (owner, folderId) => {
    await documentClient().send(
      new TransactWriteCommand({ TransactItems: [folderCountUpdate(config.tableName, owner, folderId, 1)] }),
    );
  },
}));
