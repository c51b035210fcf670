// Demo data for npm start and `npm run admin -- seed`: identity first, then each API's own seeder.
import { identity as identityService } from '../../lib/identity/wiring.ts';
import type { DemoCredentials, DemoUser, SeedContext } from '../seed/context.ts';
import { seedNotes } from '../seed/notes.ts';
import { seedNews } from '../seed/news.ts';
import { seedBank } from '../seed/bank.ts';

export type { DemoCredentials, DemoUser, SeedContext } from '../seed/context.ts';

const suffix = () => Math.random().toString(36).slice(2, 7);

export async function seedDemo(): Promise<DemoCredentials> {
  const identity = identityService();
  const tag = suffix();
  const make = async (name: string, path: string, email: string, note?: string): Promise<DemoUser> => {
    const u = await identity.createUser({ name, email, userPath: `${path}-${tag}` });
    return { name, id: u.id, userPath: u.userPath, token: await identity.issueToken(u.id), note };
  };
  const demo = await make('Demo User', 'demo', 'demo@example.org', 'owns notes, team admin, bank admin with an OTP factor');
  const alice = await make('Alice', 'alice', 'alice@example.org', 'member of the demo team');
  const bob = await make('Bob', 'bob', 'bob@example.org', 'no team');
  await identity.grantRole(demo.id, 'admin');
  const team = await identity.createTeam({ ownerId: demo.id, path: `demo-team-${tag}`, name: 'Demo Team', visibility: 'public', description: 'A team to try team notes' });
  await identity.addMember(team.path, alice.id);
  const ctx: SeedContext = { demo, alice, bob, teamPath: team.path };
  const notes = [
    `Team: ${team.path} (members: Demo User, Alice)`,
    ...(await seedNotes(ctx)),
    ...(await seedNews(ctx)),
    ...(await seedBank(ctx)),
  ];
  return { users: [demo, alice, bob], team: team.path, notes };
}
