// DynamoDB adapter of the Bank's Idempotency-Keys: the shared one (lib/data/idempotency.ts) on the
// Bank's key space; completed in the transaction of the operation's own writes (dynamo-writes.ts).
import { DynamoIdempotency } from '../../data/idempotency.ts';
import { bankKeys as k } from '../../data/keys.ts';

export class DynamoIdempotencyStore extends DynamoIdempotency {
  constructor() {
    super(k.idempotency);
  }
}
