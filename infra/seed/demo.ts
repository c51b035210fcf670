// Demo data for npm start and `npm run admin -- seed`: identity first, then each API's own seeder.
// Idempotent: what was made is remembered in a state file (LOCAL_DATA_DIR/demo.json for the local
// stack); a second run finds the users and team still there, reuses them and prints the same
// credentials (a token revoked since is replaced). Only when they are gone is a new set made.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import type { DemoCredentials, DemoUser, SeedContext } from './context.ts';
import { seedNotes } from './notes.ts';
import { seedNews } from './news.ts';
import { seedBank } from './bank.ts';

/** The demo set, and whether it was already there (`reused`) or made now. */
export type DemoSeed = DemoCredentials & { reused: boolean };

const suffix = () => Math.random().toString(36).slice(2, 7);

/** The demo set remembered in `stateFile`, if its users and team still exist (tokens renewed if revoked). */
async function reuse(stateFile: string): Promise<DemoSeed | undefined> {
  const identity = fullIdentity();
  if (!existsSync(stateFile)) return undefined;
  const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as DemoCredentials;
  const users = await Promise.all(saved.users.map((u) => identity.getUser(u.id)));
  if (users.some((u) => !u) || !(await identity.getTeam(saved.team))) return undefined;
  for (const u of saved.users) {
    if (!(await identity.authenticate(u.token))) u.token = await identity.issueToken(u.id);
  }
  writeFileSync(stateFile, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return { ...saved, reused: true };
}

async function create(): Promise<DemoCredentials> {
  const identity = fullIdentity();
  const tag = suffix();
  const make = async (name: string, path: string, email: string, note?: string): Promise<DemoUser> => {
    const u = await identity.createUser({ name, email, userPath: `${path}-${tag}` });
    return { name, id: u.id, userPath: u.userPath, token: await identity.issueToken(u.id), note };
  };
  const demo = await make(
    'Demo User',
    'demo',
    'demo@example.org',
    'owns notes, team admin, bank admin with an OTP factor',
  );
  const alice = await make('Alice', 'alice', 'alice@example.org', 'member of the demo team');
  const bob = await make('Bob', 'bob', 'bob@example.org', 'no team');
  await identity.grantRole(demo.id, 'admin');
  const team = await identity.createTeam({
    ownerId: demo.id,
    path: `demo-team-${tag}`,
    name: 'Demo Team',
    visibility: 'public',
    description: 'A team to try team notes',
  });
  await identity.addMember(team.path, alice.id);
  const ctx: SeedContext = { demo, alice, bob, teamPath: team.path };
  const bank = await seedBank(ctx);
  const notes = [
    `Team: ${team.path} (members: Demo User, Alice)`,
    ...(await seedNotes(ctx)),
    ...(await seedNews(ctx)),
    ...bank.lines,
  ];
  return { users: [demo, alice, bob], team: team.path, notes, otp: bank.otp };
}

/** Seeds once per `stateFile`; later runs return the same users, team and tokens. */
export async function seedDemo(stateFile: string): Promise<DemoSeed> {
  const reused = await reuse(stateFile);
  if (reused) return reused;
  const made = await create();
  writeFileSync(stateFile, JSON.stringify(made, null, 2), { mode: 0o600 });
  return { ...made, reused: false };
}
