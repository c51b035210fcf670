// The one place identity's adapters are chosen; built on first use. `fullIdentity()` has every method
// (admin CLI, bench, tests); each function reaches identity through a getter wired with only the
// adapter methods its operation calls (lib/domain/only.ts), so its bundle and role hold no others.
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { systemIds } from '../domain/ids.ts';
import { once } from '../domain/once.ts';
import { only } from '../domain/only.ts';
import type { Principal } from '../domain/principal.ts';
import { DynamoTeamStore, getTeam, isMember, listTeamsOfUser } from './adapters/dynamo-teams.ts';
import { countCall, DynamoTokenStore, getToken } from './adapters/dynamo-tokens.ts';
import { DynamoUserStore, getUser, getUserWithTeams } from './adapters/dynamo-users.ts';
import type { TeamStore, TokenStore, UserStore } from './ports.ts';
import { IdentityService } from './service.ts';

/** The identity service with only these adapter methods (every other one rejects). */
const wired = (stores: {
  users?: Partial<UserStore>;
  teams?: Partial<TeamStore>;
  tokens?: Partial<TokenStore>;
}) =>
  new IdentityService(
    {
      users: only<UserStore>('users', stores.users ?? {}),
      teams: only<TeamStore>('teams', stores.teams ?? {}),
      tokens: only<TokenStore>('tokens', stores.tokens ?? {}),
    },
    systemClock,
    systemIds,
  );

/** GetCurrentUser (GET /v1/me): the user's partition, one Query. */
export const currentUser = /* @__PURE__ */ once(() => wired({ users: { getUserWithTeams } }));
/** ListTeams (GET /v1/teams): the memberships, one Query. */
export const teamsOfUser = /* @__PURE__ */ once(() => wired({ teams: { listTeamsOfUser } }));
/** Who belongs to which team, for the Notes services: reads only. */
export const directory = /* @__PURE__ */ once(() =>
  wired({ users: { getUserWithTeams }, teams: { getTeam, isMember } }),
);
/** Team checks only (the Notes folder and trash services): a team, a membership, one GetItem each. */
export const teamAccess = /* @__PURE__ */ once(() => wired({ teams: { getTeam, isMember } }));
/** A user's profile and roles (Bank's admin checks): one GetItem. */
export const users = /* @__PURE__ */ once(() => wired({ users: { getUser } }));
const tokenReader = /* @__PURE__ */ once(() => wired({ tokens: { getToken } }));
const tokenCounter = /* @__PURE__ */ once(() => wired({ tokens: { countCall } }));

/** Every method: the admin CLI, the bench and tests. No function uses it (its bundle would hold every write). */
export const fullIdentity = /* @__PURE__ */ once(
  () =>
    new IdentityService(
      { users: new DynamoUserStore(), teams: new DynamoTeamStore(), tokens: new DynamoTokenStore() },
      systemClock,
      systemIds,
    ),
);

/** Bearer-token authentication, given to lib/http by each API's operations. */
export const authenticate = (token: string): Promise<Principal | undefined> =>
  tokenReader().authenticate(token);

/**
 * Authentication that also counts the call against the token's rate limit (Notes API): limit and
 * window from NOTES_RATE_LIMIT / NOTES_RATE_WINDOW_SECONDS, read per call (a token may carry its own limit).
 */
export const authenticateCounted = (token: string): Promise<Principal | undefined> =>
  tokenCounter().authenticateCounted(token, {
    limit: config.rateLimit,
    windowSeconds: config.rateWindowSeconds,
  });
