// The one place identity's adapters are chosen; built on first use.
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { systemIds } from '../domain/ids.ts';
import { once } from '../domain/once.ts';
import type { Principal } from '../domain/principal.ts';
import { DynamoTeamStore } from './adapters/dynamo-teams.ts';
import { DynamoTokenStore } from './adapters/dynamo-tokens.ts';
import { DynamoUserStore } from './adapters/dynamo-users.ts';
import { IdentityService } from './service.ts';

export const identity = /* @__PURE__ */ once(
  () =>
    new IdentityService(
      { users: new DynamoUserStore(), teams: new DynamoTeamStore(), tokens: new DynamoTokenStore() },
      systemClock,
      systemIds,
    ),
);

/** Bearer-token authentication, given to lib/http by each API's operations. */
export const authenticate = (token: string): Promise<Principal | undefined> => identity().authenticate(token);

/**
 * Authentication that also counts the call against the token's rate limit (Notes API): limit and
 * window from NOTES_RATE_LIMIT / NOTES_RATE_WINDOW_SECONDS, read per call (a token may carry its own limit).
 */
export const authenticateCounted = (token: string): Promise<Principal | undefined> =>
  identity().authenticateCounted(token, { limit: config.rateLimit, windowSeconds: config.rateWindowSeconds });
