// Needs DynamoDB Local (started by `npm test`'s global setup).
import { DynamoEnrolmentStore } from '../../lib/bank/adapters/dynamo-enrolment.ts';
import { DynamoFactorStore } from '../../lib/bank/adapters/dynamo-factors.ts';
import { DynamoIdempotencyStore } from '../../lib/bank/adapters/dynamo-idempotency.ts';
import { DynamoTransferStore } from '../../lib/bank/adapters/dynamo-transfers.ts';
import { bankContract } from './bank.ts';

bankContract('DynamoDB', () => ({
  transfers: new DynamoTransferStore(),
  factors: new DynamoFactorStore(),
  keys: new DynamoIdempotencyStore(),
  enrolment: new DynamoEnrolmentStore(),
}));
