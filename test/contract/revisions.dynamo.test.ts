// Needs DynamoDB Local (started by `npm test`'s global setup).
import { dynamoCommentStore } from '../../lib/notes/revisions/adapters/dynamo-comments.ts';
import { dynamoVersionStore } from '../../lib/notes/revisions/adapters/dynamo-versions.ts';
import { commentsContract, versionsContract } from './revisions.ts';

versionsContract('DynamoDB', dynamoVersionStore);
commentsContract('DynamoDB', dynamoCommentStore);
