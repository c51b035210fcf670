// Needs DynamoDB Local (started by `npm test`'s global setup).
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { notesKeys } from '../../lib/data/keys.ts';
import { dynamoCommentStore } from '../../lib/notes/revisions/adapters/dynamo-comments.ts';
import { dynamoVersionStore } from '../../lib/notes/revisions/adapters/dynamo-versions.ts';
import { commentsContract, versionsContract } from './revisions.ts';

versionsContract('DynamoDB', dynamoVersionStore, {
  // The note's META item at that version (what keeping a shared version's content checks).
  at: async (shortId, version) => {
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...notesKeys.noteMeta(shortId), type: 'note', shortId, version },
      }),
    );
  },
});
commentsContract('DynamoDB', dynamoCommentStore);
