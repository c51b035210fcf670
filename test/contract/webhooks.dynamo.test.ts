// Needs DynamoDB Local (started by `npm test`'s global setup).
import { dynamoWebhooks } from '../../lib/notes/webhooks/adapters/dynamo-webhooks.ts';
import { webhooksContract } from './webhooks.ts';

webhooksContract('DynamoDB', () => dynamoWebhooks);
