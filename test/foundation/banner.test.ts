// The start-up banner counts the demo data through the domain services: right counts, and not one
// call against the demo user's rate limit (it once printed "? (429)" after five minutes of use).
import { expect, it } from 'vitest';
import { describeData } from '../../infra/local/banner.ts';
import { identity } from '../../lib/identity/wiring.ts';
import { call, createNote } from '../notes/helpers.ts';
import { newTeam, newUser } from '../support/identity.ts';

it("counts the demo data without spending the demo user's rate limit, even when it is used up", async () => {
  const demo = await newUser('Banner Demo');
  const alice = await newUser('Banner Alice');
  const team = await newTeam(demo, [alice]);
  const token = await identity().issueToken(demo.id, { rateLimit: 4 });
  await createNote(token, 'one');
  await createNote(token, 'two');
  await createNote(token, 'team', team.path);
  const credentials = {
    users: [{ name: 'Demo User', id: demo.id, userPath: demo.userPath, token }],
    team: team.path,
    notes: [],
  };
  const before = await call('GET', '/v1/me', { token });
  expect(before.headers.get('x-ratelimit-userremaining')).toBe('0');

  const lines = await describeData(credentials);
  expect(lines).toContain(`Notes: 2 notes of Demo User, 1 in team ${team.path}`);
  expect(lines.find((l) => l.startsWith('Bank:'))).toMatch(/^Bank: 0 transfers of Demo User/);
  expect(lines.find((l) => l.startsWith('News:'))).toMatch(/^News: \d+ articles/);
  expect(lines.join('\n')).not.toContain('?');

  // The token's window: the four calls above, nothing more (the fifth call is the first refused).
  const after = await call('GET', '/v1/me', { token });
  expect(after.status).toBe(429);
  expect(after.headers.get('x-ratelimit-userremaining')).toBe('0');
});
