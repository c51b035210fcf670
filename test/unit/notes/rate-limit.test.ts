// The per-token window of the Notes rate limit (IdentityService.authenticateCounted) against the
// in-memory token store: fixed windows, the token's own limit, a fresh count in the next window.
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  MemoryIdentityTables,
  MemoryTeamStore,
  MemoryTokenStore,
  MemoryUserStore,
} from '../../../lib/identity/adapters/memory-identity.ts';
import { IdentityService } from '../../../lib/identity/service.ts';

const setup = () => {
  const t = new MemoryIdentityTables();
  const clock = new FixedClock(Date.UTC(2026, 0, 1, 0, 0, 10));
  const identity = new IdentityService(
    { users: new MemoryUserStore(t), teams: new MemoryTeamStore(t), tokens: new MemoryTokenStore(t) },
    clock,
    sequentialIds(),
  );
  return { identity, clock };
};
const policy = { limit: 3, windowSeconds: 300 };

describe('per-token rate window', () => {
  it('counts calls in a fixed window, refuses past the limit, starts over in the next window', async () => {
    const { identity, clock } = setup();
    const user = await identity.createUser({ name: 'R' });
    const token = await identity.issueToken(user.id);
    const windowEnd = Date.UTC(2026, 0, 1, 0, 5, 0) / 1000;
    const seen = [];
    for (let i = 0; i < 4; i += 1) seen.push((await identity.authenticateCounted(token, policy))!.rate);
    expect(seen.map((r) => [r!.remaining, r!.exceeded])).toEqual([
      [2, false],
      [1, false],
      [0, false],
      [0, true],
    ]);
    expect(seen.every((r) => r!.resetAt === windowEnd && r!.limit === 3)).toBe(true);
    clock.set(windowEnd * 1000);
    expect((await identity.authenticateCounted(token, policy))!.rate).toMatchObject({
      remaining: 2,
      exceeded: false,
      resetAt: windowEnd + 300,
    });
  });

  it("a token's own limit wins over the default; unknown and malformed tokens are not counted", async () => {
    const { identity } = setup();
    const user = await identity.createUser({ name: 'S' });
    const token = await identity.issueToken(user.id, { rateLimit: 1 });
    expect((await identity.authenticateCounted(token, policy))!.rate).toMatchObject({
      limit: 1,
      remaining: 0,
      exceeded: false,
    });
    expect((await identity.authenticateCounted(token, policy))!.rate!.exceeded).toBe(true);
    expect(await identity.authenticateCounted(`tri_${'A'.repeat(43)}`, policy)).toBeUndefined();
    expect(await identity.authenticateCounted('nope', policy)).toBeUndefined();
  });
});
