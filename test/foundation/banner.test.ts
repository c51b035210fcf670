// The start-up banner counts the demo data through the domain services: right counts, and not one
// call against the demo user's rate limit (it once printed "? (429)" after five minutes of use); it
// tells the Demo User how to take a first step-up (docs/bank.md, "The Demo User's first factor").
import { expect, it } from 'vitest';
import { describeData, firstFactor } from '../../infra/local/banner.ts';
import { fullMfaWithTotp } from '../../lib/bank/wiring.ts';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import { call, createNote } from '../notes/helpers.ts';
import { newTeam, newUser } from '../support/identity.ts';

it("counts the demo data without spending the demo user's rate limit, even when it is used up", async () => {
  const demo = await newUser('Banner Demo');
  const alice = await newUser('Banner Alice');
  const team = await newTeam(demo, [alice]);
  const token = await fullIdentity().issueToken(demo.id, { rateLimit: 4 });
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

it("points the Demo User to their first step-up: the seeded OTP factor's secret while it is there, else an mfa_token; and the passkey page", async () => {
  const demo = await newUser('Banner Factor');
  const { device, secret, otpauth_uri } = await fullMfaWithTotp().enroll({ userId: demo.id, kind: 'otp' });
  const credentials = {
    users: [{ name: 'Demo User', id: demo.id, userPath: demo.userPath, token: demo.token }],
    team: 'unused',
    notes: [],
    otp: { deviceId: device.id, secret: secret!, otpauthUri: otpauth_uri! },
  };
  const url = 'http://localhost:3999';
  const lines = (await firstFactor(credentials, url)).join('\n');
  expect(lines).toContain('docs/bank.md "The Demo User\'s first factor"');
  expect(lines).toContain(`OTP factor ${device.id}: secret ${secret}`);
  expect(lines).toContain(otpauth_uri);
  expect(lines).toContain(`${url}/_bank/passkey?user=${demo.id}`);

  // The seeded factor deleted since (here: a demo set naming a factor the user does not have).
  const deleted = { ...credentials, otp: { ...credentials.otp, deviceId: 'dev_0mx0000000000000000000' } };
  const gone = (await firstFactor(deleted, url)).join('\n');
  expect(gone).not.toContain(secret);
  expect(gone).toContain('the seeded OTP factor dev_0mx0000000000000000000 is gone');
  expect(gone).toContain(`POST /api/users/${demo.id}/mfa_token`);

  // A demo set saved before the factor was recorded: where to find the secret.
  const { otp: _, ...older } = credentials;
  expect((await firstFactor(older, url)).join('\n')).toContain('npm run admin -- seed');
});
