// Optimistic writes: an attempt reads, decides and writes conditionally on what it read; when another
// writer got there first, it is run again on a fresh read. One loop for every such operation of the
// domain, so each says only what it does once, which errors mean "changed meanwhile", and what the
// caller is told when the state kept changing (a 409 to retry, usually).

/** What an attempt returns to be run again (its conditional write lost, nothing was written). */
export const AGAIN: unique symbol = Symbol('again');

export interface RetryPolicy {
  /** Attempts before giving up, each on a fresh read. */
  attempts: number;
  /** Whether an error an attempt threw means "changed meanwhile" (run again); any other is thrown. */
  conflict?: (err: unknown) => boolean;
  /** The error once every attempt met a change. */
  exhausted: () => Error;
  /**
   * The wait before the next attempt, in ms, given the attempts made so far (racers spread out when
   * it is random); none by default. Waited through `sleep`: the Clock port's, so tests never sleep.
   */
  backoff?: (made: number) => number;
  sleep?: (ms: number) => Promise<void>;
}

export async function retryOnConflict<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T | typeof AGAIN>,
): Promise<T> {
  for (let n = 1; n <= policy.attempts; n += 1) {
    if (n > 1 && policy.backoff && policy.sleep) await policy.sleep(policy.backoff(n - 1));
    try {
      const result = await attempt(n);
      if (result !== AGAIN) return result;
    } catch (err) {
      if (!policy.conflict?.(err)) throw err;
    }
  }
  throw policy.exhausted();
}
