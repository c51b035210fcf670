import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { Conflict, NotFound } from '../../../lib/domain/errors.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  MemoryIdentityTables,
  MemoryTeamStore,
  MemoryTokenStore,
  MemoryUserStore,
} from '../../../lib/identity/adapters/memory-identity.ts';
import { IdentityService } from '../../../lib/identity/service.ts';

const identity = () => {
  const t = new MemoryIdentityTables();
  return new IdentityService(
    { users: new MemoryUserStore(t), teams: new MemoryTeamStore(t), tokens: new MemoryTokenStore(t) },
    new FixedClock(1000),
    sequentialIds(),
  );
};

describe('IdentityService', () => {
  it('derives a user path from the name', async () => {
    expect((await identity().createUser({ name: 'Ada Lovelace' })).userPath).toMatch(
      /^ada-lovelace-[0-9a-f]{8}$/,
    );
  });

  it('refuses a taken user path', async () => {
    const id = identity();
    await id.createUser({ name: 'A', userPath: 'ada' });
    await expect(id.createUser({ name: 'B', userPath: 'ada' })).rejects.toBeInstanceOf(Conflict);
  });

  it('authenticates an issued token as its user', async () => {
    const id = identity();
    const u = await id.createUser({ name: 'A' });
    expect(await id.authenticate(await id.issueToken(u.id))).toMatchObject({ userId: u.id });
  });

  it('does not authenticate a revoked token', async () => {
    const id = identity();
    const u = await id.createUser({ name: 'A' });
    const token = await id.issueToken(u.id);
    await id.revokeToken(token);
    expect(await id.authenticate(token)).toBeUndefined();
  });

  it('does not look up a malformed token', async () => {
    expect(await identity().authenticate('not a token')).toBeUndefined();
  });

  it('refuses a token for an unknown user', async () => {
    await expect(identity().issueToken('nobody')).rejects.toBeInstanceOf(NotFound);
  });

  it('makes a team owner its first member', async () => {
    const id = identity();
    const u = await id.createUser({ name: 'A' });
    await id.createTeam({ ownerId: u.id, path: 'team', name: 'T' });
    expect(await id.isMember('team', u.id)).toBe(true);
  });

  it('refuses a member for an unknown team', async () => {
    const id = identity();
    const u = await id.createUser({ name: 'A' });
    await expect(id.addMember('nope', u.id)).rejects.toBeInstanceOf(NotFound);
  });
});
