// Users, teams and tokens for tests, made through the same identity service the admin CLI uses.
import { randomUUID } from 'node:crypto';
import { fullIdentity } from '../../lib/identity/wiring.ts';

export interface TestUser {
  id: string;
  name: string;
  userPath: string;
  token: string;
}

export async function newUser(name = 'Test User', opts: { admin?: boolean } = {}): Promise<TestUser> {
  const user = await fullIdentity().createUser({
    name,
    email: `${randomUUID().slice(0, 8)}@example.test`,
    userPath: `u-${randomUUID().slice(0, 12)}`,
  });
  if (opts.admin) await fullIdentity().grantRole(user.id, 'admin');
  return {
    id: user.id,
    name: user.name,
    userPath: user.userPath,
    token: await fullIdentity().issueToken(user.id),
  };
}

export async function newTeam(owner: TestUser, members: TestUser[] = [], name = 'Test Team') {
  const team = await fullIdentity().createTeam({
    ownerId: owner.id,
    path: `t-${randomUUID().slice(0, 12)}`,
    name,
    visibility: 'private',
  });
  for (const m of members) await fullIdentity().addMember(team.path, m.id);
  return team;
}
