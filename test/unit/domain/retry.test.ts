// retryOnConflict: an attempt that lost its conditional write (AGAIN, or an error the policy calls a
// conflict) runs again on a fresh read, at most `attempts` times, then the policy's own error; any
// other error ends it at once; waits go through the policy's sleep (a fixed clock's: no sleeping).
import { expect, it } from 'vitest';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { AGAIN, retryOnConflict } from '../../../lib/domain/retry.ts';

class Changed extends Error {}
const policy = {
  attempts: 3,
  conflict: (e: unknown) => e instanceof Changed,
  exhausted: () => new Error('busy'),
};

it('runs again after AGAIN or a conflict, and returns the first result', async () => {
  const seen: number[] = [];
  const result = await retryOnConflict(policy, async (n) => {
    seen.push(n);
    if (n === 1) return AGAIN;
    if (n === 2) throw new Changed();
    return `won on ${n}`;
  });
  expect(result).toBe('won on 3');
  expect(seen).toEqual([1, 2, 3]);
});

it("gives up with the policy's error after its attempts", async () => {
  let runs = 0;
  await expect(
    retryOnConflict(policy, async () => {
      runs += 1;
      return AGAIN;
    }),
  ).rejects.toThrow('busy');
  expect(runs).toBe(3);
});

it('throws any other error at once', async () => {
  let runs = 0;
  await expect(
    retryOnConflict(policy, async () => {
      runs += 1;
      throw new TypeError('not a conflict');
    }),
  ).rejects.toThrow(TypeError);
  expect(runs).toBe(1);
});

it("waits between attempts through the clock's sleep, never before the first", async () => {
  const clock = new FixedClock(0);
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    await clock.sleep(ms);
  };
  await expect(
    retryOnConflict({ ...policy, backoff: (made) => 10 * made, sleep }, async () => AGAIN),
  ).rejects.toThrow('busy');
  expect(waits).toEqual([10, 20]);
  expect(clock.now()).toBe(30);
});
