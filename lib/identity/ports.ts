// The identity ports: what the domain needs from storage. Adapters in ./adapters (dynamo-*,
// memory-*); ./wiring.ts picks them. A taken user path or team path is Conflict('path').
import type { Role, Team, User } from './model.ts';

export interface TokenRecord {
  userId: string;
  createdAt: number;
  /** Calls allowed per window for this token, instead of the deployment's default. */
  rateLimit?: number;
}

/** The token's record and its count of calls in the window that starts at `windowStart`. */
export interface CountedCall {
  record: TokenRecord;
  count: number;
}

export interface UserStore {
  /** Creates the user; Conflict('path') when the userPath is taken. */
  createUser(user: User): Promise<void>;
  getUser(userId: string): Promise<User | undefined>;
  /**
   * The user and the teams they belong to, in one read; with the workspaces (their own: `user`, a
   * team's: its path) marked as having a webhook (webhookKeys.workspaceMark), when the store keeps them.
   */
  getUserWithTeams(
    userId: string,
  ): Promise<{ user: User; teams: Team[]; hookedWorkspaces?: string[] } | undefined>;
  /** Adds the role (no change when granted already); NotFound for an unknown user. */
  grantRole(userId: string, role: Role): Promise<void>;
}

export interface TeamStore {
  /** Creates the team; Conflict('path') when the path is taken. */
  createTeam(team: Team): Promise<void>;
  getTeam(teamPath: string): Promise<Team | undefined>;
  addMember(team: Team, userId: string): Promise<void>;
  isMember(teamPath: string, userId: string): Promise<boolean>;
  listTeamsOfUser(userId: string): Promise<Team[]>;
}

export interface TokenStore {
  putToken(tokenHash: string, record: TokenRecord): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | undefined>;
  /**
   * Counts one call of the token in the window starting at `windowStart` (epoch seconds), in the
   * request that reads the token: undefined for an unknown token. Atomic under concurrent calls.
   */
  countCall(tokenHash: string, windowStart: number): Promise<CountedCall | undefined>;
  /** False when there was no such token. */
  deleteToken(tokenHash: string): Promise<boolean>;
}
