// The identity port: what the domain needs from storage. lib/identity/dynamo-store.ts is the
// DynamoDB adapter; tests may pass another implementation to the service.
import type { Role, Team, User } from './model.ts';

export interface TokenRecord { userId: string; createdAt: number }

export interface IdentityStore {
  /** Creates the user; fails with 'userPath taken' when the path exists. */
  createUser(user: User): Promise<void>;
  getUser(userId: string): Promise<User | undefined>;
  /** The user and the teams they belong to, in one read. */
  getUserWithTeams(userId: string): Promise<{ user: User; teams: Team[] } | undefined>;
  listTeamsOfUser(userId: string): Promise<Team[]>;
  createTeam(team: Team): Promise<void>;
  getTeam(teamPath: string): Promise<Team | undefined>;
  addMember(team: Team, userId: string): Promise<void>;
  isMember(teamPath: string, userId: string): Promise<boolean>;
  grantRole(userId: string, role: Role): Promise<void>;
  putToken(tokenHash: string, record: TokenRecord): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | undefined>;
  deleteToken(tokenHash: string): Promise<boolean>;
}

export class PathTakenError extends Error {}
