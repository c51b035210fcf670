import { memoryWebhooks } from '../../lib/notes/webhooks/adapters/memory-webhooks.ts';
import { webhooksContract } from './webhooks.ts';

webhooksContract('in memory', () => memoryWebhooks());
