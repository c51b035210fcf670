// The contract of identity's storage ports: the in-memory and DynamoDB adapters pass this same suite.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '../../lib/domain/errors.ts';
import type { Team, User } from '../../lib/identity/model.ts';
import type { TeamStore, TokenStore, UserStore } from '../../lib/identity/ports.ts';

export interface IdentityStores {
  users: UserStore;
  teams: TeamStore;
  tokens: TokenStore;
}

const user = (): User => {
  const id = randomUUID();
  return {
    id,
    name: 'N',
    email: null,
    userPath: `p-${id}`,
    photo: 'x',
    biography: null,
    upgraded: false,
    roles: [],
    createdAt: 1,
  };
};
const team = (ownerId: string, path = `t-${randomUUID()}`): Team => ({
  id: randomUUID(),
  ownerId,
  name: 'T',
  logo: 'l',
  path,
  description: null,
  visibility: 'private',
  upgraded: false,
  createdAt: 1,
});

export function identityContract(name: string, stores: () => IdentityStores): void {
  describe(`${name}: identity`, () => {
    it('reads back a user; refuses a taken user path with Conflict(path)', async () => {
      const { users } = stores();
      const u = user();
      await users.createUser(u);
      expect(await users.getUser(u.id)).toEqual(u);
      const taken = users.createUser({ ...user(), userPath: u.userPath });
      await expect(taken).rejects.toBeInstanceOf(Conflict);
      await expect(taken).rejects.toMatchObject({ reason: 'path' });
    });

    it('grants a role once; an unknown user is NotFound', async () => {
      const { users } = stores();
      const u = user();
      await users.createUser(u);
      await users.grantRole(u.id, 'admin');
      await users.grantRole(u.id, 'admin');
      expect((await users.getUser(u.id))?.roles).toEqual(['admin']);
      await expect(users.grantRole(randomUUID(), 'admin')).rejects.toBeInstanceOf(NotFound);
    });

    it('lists a user with their teams, sorted by path, in one read', async () => {
      const { users, teams } = stores();
      const u = user();
      await users.createUser(u);
      const [b, a] = [team(u.id, `b-${randomUUID()}`), team(u.id, `a-${randomUUID()}`)];
      for (const t of [b, a]) {
        await teams.createTeam(t);
        await teams.addMember(t, u.id);
      }
      expect((await users.getUserWithTeams(u.id))?.teams.map((t) => t.path)).toEqual([a.path, b.path]);
      expect((await teams.listTeamsOfUser(u.id)).map((t) => t.path)).toEqual([a.path, b.path]);
      expect(await users.getUserWithTeams(randomUUID())).toBeUndefined();
    });

    it('knows members; refuses a taken team path with Conflict(path)', async () => {
      const { users, teams } = stores();
      const u = user();
      await users.createUser(u);
      const t = team(u.id);
      await teams.createTeam(t);
      await teams.addMember(t, u.id);
      expect(await teams.isMember(t.path, u.id)).toBe(true);
      expect(await teams.isMember(t.path, randomUUID())).toBe(false);
      await expect(teams.createTeam(team(u.id, t.path))).rejects.toMatchObject({ reason: 'path' });
    });

    it('stores, reads and deletes a token; deleting twice says false', async () => {
      const { tokens } = stores();
      const hash = `h-${randomUUID()}`;
      await tokens.putToken(hash, { userId: 'u', createdAt: 5 });
      expect(await tokens.getToken(hash)).toEqual({ userId: 'u', createdAt: 5 });
      expect(await tokens.deleteToken(hash)).toBe(true);
      expect(await tokens.deleteToken(hash)).toBe(false);
      expect(await tokens.getToken(hash)).toBeUndefined();
    });
  });
}
