// Needs DynamoDB Local (started by `npm test`'s global setup).
import { DynamoTeamStore } from '../../lib/identity/adapters/dynamo-teams.ts';
import { DynamoTokenStore } from '../../lib/identity/adapters/dynamo-tokens.ts';
import { DynamoUserStore } from '../../lib/identity/adapters/dynamo-users.ts';
import { identityContract } from './identity.ts';

identityContract('DynamoDB', () => ({
  users: new DynamoUserStore(),
  teams: new DynamoTeamStore(),
  tokens: new DynamoTokenStore(),
}));
