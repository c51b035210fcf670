// In-memory adapters of users, teams and tokens (unit tests): the same contracts as dynamo-*.ts,
// over one shared state (memberships are seen from users and from teams).
import { Conflict, NotFound } from '../../domain/errors.ts';
import type { Role, Team, User } from '../model.ts';
import type { CountedCall, TeamStore, TokenRecord, TokenStore, UserStore } from '../ports.ts';

const copy = <T>(value: T): T => structuredClone(value);

export class MemoryIdentityTables {
  readonly users = new Map<string, User>();
  readonly userPaths = new Set<string>();
  readonly teams = new Map<string, Team>();
  /** userId -> team paths, sorted (as the table's sort key orders them). */
  readonly memberships = new Map<string, string[]>();
  readonly tokens = new Map<string, TokenRecord>();
}

export class MemoryUserStore implements UserStore {
  constructor(private readonly t: MemoryIdentityTables) {}

  async createUser(user: User): Promise<void> {
    if (this.t.userPaths.has(user.userPath) || this.t.users.has(user.id)) {
      throw new Conflict(`userPath ${user.userPath} is taken`, { reason: 'path' });
    }
    this.t.userPaths.add(user.userPath);
    this.t.users.set(user.id, copy(user));
  }

  async getUser(userId: string): Promise<User | undefined> {
    const u = this.t.users.get(userId);
    return u && copy(u);
  }

  async getUserWithTeams(userId: string) {
    const user = await this.getUser(userId);
    if (!user) return undefined;
    const teams = (this.t.memberships.get(userId) ?? []).map((p) => copy(this.t.teams.get(p)!));
    return { user, teams };
  }

  async grantRole(userId: string, role: Role): Promise<void> {
    const u = this.t.users.get(userId);
    if (!u) throw new NotFound(`unknown user ${userId}`);
    if (!u.roles.includes(role)) u.roles.push(role);
  }
}

export class MemoryTeamStore implements TeamStore {
  constructor(private readonly t: MemoryIdentityTables) {}

  async createTeam(team: Team): Promise<void> {
    if (this.t.teams.has(team.path))
      throw new Conflict(`team path ${team.path} is taken`, { reason: 'path' });
    this.t.teams.set(team.path, copy(team));
  }

  async getTeam(teamPath: string): Promise<Team | undefined> {
    const team = this.t.teams.get(teamPath);
    return team && copy(team);
  }

  async addMember(team: Team, userId: string): Promise<void> {
    const paths = this.t.memberships.get(userId) ?? [];
    if (!paths.includes(team.path)) this.t.memberships.set(userId, [...paths, team.path].sort());
  }

  async isMember(teamPath: string, userId: string): Promise<boolean> {
    return (this.t.memberships.get(userId) ?? []).includes(teamPath);
  }

  async listTeamsOfUser(userId: string): Promise<Team[]> {
    return (this.t.memberships.get(userId) ?? []).map((p) => copy(this.t.teams.get(p)!));
  }
}

export class MemoryTokenStore implements TokenStore {
  constructor(private readonly t: MemoryIdentityTables) {}

  async putToken(tokenHash: string, record: TokenRecord): Promise<void> {
    if (this.t.tokens.has(tokenHash)) throw new Conflict('token exists');
    this.t.tokens.set(tokenHash, copy(record));
  }

  async getToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const r = this.t.tokens.get(tokenHash);
    return r && copy(r);
  }

  async deleteToken(tokenHash: string): Promise<boolean> {
    this.windows.delete(tokenHash);
    return this.t.tokens.delete(tokenHash);
  }

  private readonly windows = new Map<string, { start: number; count: number }>();

  async countCall(tokenHash: string, windowStart: number): Promise<CountedCall | undefined> {
    const record = this.t.tokens.get(tokenHash);
    if (!record) return undefined;
    const w = this.windows.get(tokenHash);
    const next =
      w && w.start === windowStart
        ? { start: windowStart, count: w.count + 1 }
        : { start: windowStart, count: 1 };
    this.windows.set(tokenHash, next);
    return { record: copy(record), count: next.count };
  }
}
