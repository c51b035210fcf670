// The per-source limit of the routes without an API token (lib/bank/source-limit.ts), over the
// in-memory counters and a fixed clock.
import { describe, expect, it } from 'vitest';
import { MemoryBankTables } from '../../../lib/bank/adapters/memory-tables.ts';
import { MFA_LIMITS } from '../../../lib/bank/limits.ts';
import { SourceLimits } from '../../../lib/bank/source-limit.ts';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { START_MS } from './fixture.ts';

describe('refused requests per source address', () => {
  it('30 a minute, then every request of that address is refused (429 + Retry-After); others are not', async () => {
    const clock = new FixedClock(START_MS);
    const tables = new MemoryBankTables();
    const limits = new SourceLimits(tables, clock);
    expect(MFA_LIMITS.sourceRefusals).toEqual({ max: 30, windowSeconds: 60 });
    for (let i = 0; i < 30; i += 1) {
      await limits.admit('203.0.113.7');
      await limits.refused('203.0.113.7');
    }
    const refused = await limits.admit('203.0.113.7').catch((e) => e);
    expect(refused).toMatchObject({ kind: 'limit_reached' });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // Counting past the limit is not an error (the refusal stands as answered).
    await limits.refused('203.0.113.7');
    await limits.admit('198.51.100.1');
    // The address is not stored in clear.
    expect(JSON.stringify([...tables.limits.keys()])).not.toContain('203.0.113.7');
    // Two windows later it is admitted again.
    clock.advance(2 * 60_000);
    await limits.admit('203.0.113.7');
  });
});
