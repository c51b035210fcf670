// Identity use cases: used by authentication (lib/http is given `authenticate`), the Notes /me and
// /teams routes, Bank's admin checks, and the admin CLI. Adapters come from ./wiring.ts.
import { seconds, type Clock } from '../domain/clock.ts';
import { NotFound } from '../domain/errors.ts';
import type { Ids } from '../domain/ids.ts';
import type { Principal } from '../domain/principal.ts';
import type { Role, Team, TeamVisibility, User } from './model.ts';
import type { TeamStore, TokenStore, UserStore } from './ports.ts';
import { hashToken, isWellFormedToken, newToken } from './tokens.ts';

const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 40) || 'user';
const avatar = (seed: string) =>
  `https://www.gravatar.com/avatar/${hashToken(seed).slice(0, 32)}?d=identicon`;

/** Calls allowed per token per fixed window of `windowSeconds`. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

export interface IdentityStores {
  users: UserStore;
  teams: TeamStore;
  tokens: TokenStore;
}

export class IdentityService {
  constructor(
    private readonly stores: IdentityStores,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  /** Resolves a bearer token to the calling user, or undefined (malformed, unknown or revoked). */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!isWellFormedToken(token)) return undefined;
    const tokenHash = hashToken(token);
    const record = await this.stores.tokens.getToken(tokenHash);
    return record ? { userId: record.userId, tokenHash } : undefined;
  }

  async createUser(input: {
    name: string;
    email?: string | null;
    userPath?: string;
    biography?: string | null;
  }): Promise<User> {
    const id = this.ids.uuid();
    const user: User = {
      id,
      name: input.name,
      email: input.email ?? null,
      userPath: input.userPath ?? `${slug(input.name)}-${id.slice(0, 8)}`,
      photo: avatar(id),
      biography: input.biography ?? null,
      upgraded: false,
      roles: [],
      createdAt: this.clock.now(),
    };
    await this.stores.users.createUser(user);
    return user;
  }

  /**
   * Authentication that counts the call in the token's fixed window (one request: the counter lives
   * on the token's item). The limit is the token's own (`rateLimit`) or `policy.limit`.
   */
  async authenticateCounted(token: string, policy: RatePolicy): Promise<Principal | undefined> {
    if (!isWellFormedToken(token)) return undefined;
    const tokenHash = hashToken(token);
    const now = seconds(this.clock);
    const windowStart = now - (now % policy.windowSeconds);
    const counted = await this.stores.tokens.countCall(tokenHash, windowStart);
    if (!counted) return undefined;
    const limit = counted.record.rateLimit ?? policy.limit;
    const rate = {
      limit,
      remaining: Math.max(0, limit - counted.count),
      resetAt: windowStart + policy.windowSeconds,
      exceeded: counted.count > limit,
    };
    return { userId: counted.record.userId, tokenHash, rate };
  }

  /**
   * Issues a new API token for the user; the plain token is returned once and never stored.
   * `rateLimit` gives the token its own calls-per-window limit (otherwise the deployment's).
   */
  async issueToken(userId: string, opts: { rateLimit?: number } = {}): Promise<string> {
    await this.requireUser(userId);
    const token = newToken();
    await this.stores.tokens.putToken(hashToken(token), { userId, createdAt: this.clock.now(), ...opts });
    return token;
  }

  revokeToken(token: string): Promise<boolean> {
    return this.stores.tokens.deleteToken(hashToken(token));
  }

  async createTeam(input: {
    ownerId: string;
    path: string;
    name: string;
    visibility?: TeamVisibility;
    description?: string | null;
  }): Promise<Team> {
    await this.requireUser(input.ownerId);
    const team: Team = {
      id: this.ids.uuid(),
      ownerId: input.ownerId,
      name: input.name,
      logo: avatar(input.path),
      path: input.path,
      description: input.description ?? null,
      visibility: input.visibility ?? 'private',
      upgraded: false,
      createdAt: this.clock.now(),
    };
    await this.stores.teams.createTeam(team);
    await this.stores.teams.addMember(team, input.ownerId);
    return team;
  }

  async addMember(teamPath: string, userId: string): Promise<void> {
    const team = await this.stores.teams.getTeam(teamPath);
    if (!team) throw new NotFound(`unknown team ${teamPath}`);
    await this.requireUser(userId);
    await this.stores.teams.addMember(team, userId);
  }

  grantRole(userId: string, role: Role) {
    return this.stores.users.grantRole(userId, role);
  }
  getUser(userId: string) {
    return this.stores.users.getUser(userId);
  }
  getUserWithTeams(userId: string) {
    return this.stores.users.getUserWithTeams(userId);
  }
  listTeams(userId: string) {
    return this.stores.teams.listTeamsOfUser(userId);
  }
  getTeam(teamPath: string) {
    return this.stores.teams.getTeam(teamPath);
  }
  isMember(teamPath: string, userId: string) {
    return this.stores.teams.isMember(teamPath, userId);
  }

  private async requireUser(userId: string): Promise<void> {
    if (!(await this.stores.users.getUser(userId))) throw new NotFound(`unknown user ${userId}`);
  }
}
