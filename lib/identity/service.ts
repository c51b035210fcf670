// Identity use cases: used by the auth middleware, the Notes /me and /teams routes, and the admin CLI.
import { randomUUID } from 'node:crypto';
import { config } from '../config.ts';
import { DynamoIdentityStore } from './dynamo-store.ts';
import type { Principal, Role, Team, TeamVisibility, User } from './model.ts';
import type { IdentityStore } from './store.ts';
import { hashToken, isWellFormedToken, newToken } from './tokens.ts';

const slug = (s: string) => s.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().toLowerCase().replace(/[\s_]+/g, '-').replace(/-+/g, '-').slice(0, 40) || 'user';
const avatar = (seed: string) => `https://www.gravatar.com/avatar/${hashToken(seed).slice(0, 32)}?d=identicon`;

export class IdentityService {
  constructor(readonly store: IdentityStore) {}

  /** Resolves a bearer token to the calling user, or undefined (malformed, unknown or revoked). */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!isWellFormedToken(token)) return undefined;
    const tokenHash = hashToken(token);
    const record = await this.store.getToken(tokenHash);
    return record ? { userId: record.userId, tokenHash } : undefined;
  }

  async createUser(input: { name: string; email?: string | null; userPath?: string; biography?: string | null }): Promise<User> {
    const id = randomUUID();
    const user: User = {
      id, name: input.name, email: input.email ?? null,
      userPath: input.userPath ?? `${slug(input.name)}-${id.slice(0, 8)}`,
      photo: avatar(id), biography: input.biography ?? null, upgraded: false, roles: [], createdAt: Date.now(),
    };
    await this.store.createUser(user);
    return user;
  }

  /** Issues a new API token for the user; the plain token is returned once and never stored. */
  async issueToken(userId: string): Promise<string> {
    if (!(await this.store.getUser(userId))) throw new Error(`unknown user ${userId}`);
    const token = newToken();
    await this.store.putToken(hashToken(token), { userId, createdAt: Date.now() });
    return token;
  }

  revokeToken(token: string): Promise<boolean> {
    return this.store.deleteToken(hashToken(token));
  }

  async createTeam(input: { ownerId: string; path: string; name: string; visibility?: TeamVisibility; description?: string | null }): Promise<Team> {
    if (!(await this.store.getUser(input.ownerId))) throw new Error(`unknown user ${input.ownerId}`);
    const team: Team = {
      id: randomUUID(), ownerId: input.ownerId, name: input.name, logo: avatar(input.path), path: input.path,
      description: input.description ?? null, visibility: input.visibility ?? 'private', upgraded: false, createdAt: Date.now(),
    };
    await this.store.createTeam(team);
    await this.store.addMember(team, input.ownerId);
    return team;
  }

  async addMember(teamPath: string, userId: string): Promise<void> {
    const team = await this.store.getTeam(teamPath);
    if (!team) throw new Error(`unknown team ${teamPath}`);
    if (!(await this.store.getUser(userId))) throw new Error(`unknown user ${userId}`);
    await this.store.addMember(team, userId);
  }

  grantRole(userId: string, role: Role) { return this.store.grantRole(userId, role); }
  getUser(userId: string) { return this.store.getUser(userId); }
  getUserWithTeams(userId: string) { return this.store.getUserWithTeams(userId); }
  listTeams(userId: string) { return this.store.listTeamsOfUser(userId); }
  getTeam(teamPath: string) { return this.store.getTeam(teamPath); }
  isMember(teamPath: string, userId: string) { return this.store.isMember(teamPath, userId); }
}

/** The container's identity service, over the DynamoDB adapter. */
export const identity = new IdentityService(new DynamoIdentityStore(() => config.tableName));
