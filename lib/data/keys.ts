// Every key of the single table is built here, and only here. The table has generic key names:
//   PK / SK                 base table
//   GSI1PK / GSI1SK         GSI1 (projection ALL)
//   GSI2PK / GSI2SK         GSI2 (projection ALL)
//   GSI3PK / GSI3SK         GSI3 (projection ALL)
//   ttl                     TTL attribute (epoch seconds)
// Entity prefixes are upper case and end with '#'. Ids never contain '#'.
// Each section below belongs to one API; add new access patterns to your own section.

export const TABLE_KEYS = { pk: 'PK', sk: 'SK', ttl: 'ttl', indexes: ['GSI1', 'GSI2', 'GSI3'] } as const;

export interface Key { PK: string; SK: string }

/** Zero-padded decimal, so numbers sort as strings. */
export const pad = (n: number, width = 16): string => Math.trunc(n).toString().padStart(width, '0');

// ---- identity (users, teams, memberships, API tokens, roles) ----------------------------------
export const identityKeys = {
  /** User profile. Item also carries `roles`. */
  user: (userId: string): Key => ({ PK: `USER#${userId}`, SK: 'PROFILE' }),
  /** Uniqueness guard for a user's path. */
  userPath: (userPath: string): Key => ({ PK: `USERPATH#${userPath}`, SK: 'USERPATH' }),
  /** Everything under a user's partition: PROFILE and MEMBER# items (one Query for /me). */
  userPartition: (userId: string): string => `USER#${userId}`,
  /** Membership, seen from the user: carries a copy of the team record. */
  membershipOfUser: (userId: string, teamPath: string): Key => ({ PK: `USER#${userId}`, SK: `MEMBER#${teamPath}` }),
  memberPrefix: 'MEMBER#',
  /** Team record, keyed by its path (paths are immutable). */
  team: (teamPath: string): Key => ({ PK: `TEAM#${teamPath}`, SK: 'TEAM' }),
  /** Membership, seen from the team. */
  membershipOfTeam: (teamPath: string, userId: string): Key => ({ PK: `TEAM#${teamPath}`, SK: `MEMBER#${userId}` }),
  teamPartition: (teamPath: string): string => `TEAM#${teamPath}`,
  /** API token, keyed by the SHA-256 of the token; GSI1 lists a user's tokens. */
  token: (tokenHash: string): Key => ({ PK: `TOKEN#${tokenHash}`, SK: 'TOKEN' }),
  tokensOfUser: (userId: string): { GSI1PK: string; GSI1SK: string } => ({ GSI1PK: `TOKENS#${userId}`, GSI1SK: `TOKEN#${Date.now()}` }),
};

// ---- notes ------------------------------------------------------------------------------------

// ---- news -------------------------------------------------------------------------------------

// ---- bank -------------------------------------------------------------------------------------
