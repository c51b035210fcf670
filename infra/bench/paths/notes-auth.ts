// The Notes authentication's own requests, through the adapters the functions use and nothing else
// (no middy, no validation, no HTTP): the token's rate-limit UpdateItem, then the caller's Query.
// What every Notes function's first call pays before its own code (`npm run bench -- --data-path`).
import { countCall } from '../../../lib/identity/adapters/dynamo-tokens.ts';
import { getUserWithTeams } from '../../../lib/identity/adapters/dynamo-users.ts';

export const handler = async (event: { id: string }) => {
  const counted = await countCall(event.id, 0);
  const user = counted && (await getUserWithTeams(counted.record.userId));
  return { statusCode: user ? 200 : 401, body: '' };
};
