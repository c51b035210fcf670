// Status counters of the News API. Every News response is recorded in memory by the dialect's
// middleware (lib/http/news.ts, given these counters by lib/news/http/operation.ts); a container
// adds its counts to one of SHARDS counter items (its
// own partition key, chosen at random per container) at most once per NEWS_COUNTER_FLUSH_MS
// (default 10 s), and whenever the status route runs, which first waits for the container's flush
// in flight: the status a container answers counts every response that container had answered
// before it. The first flush of a shard stamps its startedAt; the earliest stamp is the service's
// start time.
import type { Clock } from '../domain/clock.ts';
import type { StatusStore } from './ports.ts';

export const COUNTER_SHARDS = 16;
const DEFAULT_FLUSH_MS = 10_000;

export const flushInterval = (): number => {
  const ms = Number(process.env.NEWS_COUNTER_FLUSH_MS ?? DEFAULT_FLUSH_MS);
  return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_FLUSH_MS;
};

export class StatusCounters {
  private served = 0;
  private errors = 0;
  /** 0: a container's first counted response flushes at once (so the start time is stored early). */
  private lastFlush = 0;
  /** Flushes run one after another: `last` is the latest, `flushing` how many are queued or running. */
  private last: Promise<boolean> = Promise.resolve(true);
  private flushing = 0;
  private readonly shard = Math.floor(Math.random() * COUNTER_SHARDS);

  constructor(
    private readonly store: StatusStore,
    private readonly clock: Clock,
    /** Told when a flush fails (the counts stay pending). */
    private readonly onFlushError: (error: Error) => void = () => {},
  ) {}

  /** 2XX responses count as served, 5XX as errors; others are not counted. */
  record(status: number): void {
    if (status >= 200 && status < 300) this.served += 1;
    else if (status >= 500) this.errors += 1;
  }

  /** Flushes when counts are pending, no flush is running and the interval has passed. */
  async flushIfDue(now = this.clock.now()): Promise<void> {
    if (this.flushing || !(this.served || this.errors) || now - this.lastFlush < flushInterval()) return;
    await this.flush(now);
  }

  /**
   * Adds the pending counts to this container's shard (one UpdateItem), after the flush in flight,
   * if any, has ended: when this resolves true, every count recorded before the call is in the
   * table (the status read relies on it). A flush in flight that failed (the table does not answer)
   * makes this one false at once, without another attempt. Never throws: failed counts stay pending.
   */
  flush(now = this.clock.now()): Promise<boolean> {
    const inFlight = this.flushing > 0 ? this.last : undefined;
    const run = (async () => {
      if (inFlight && !(await inFlight)) return false;
      return this.write(now);
    })();
    this.flushing += 1;
    this.last = run;
    void run.then(() => {
      this.flushing -= 1;
    });
    return run;
  }

  private async write(now: number): Promise<boolean> {
    const [served, errors] = [this.served, this.errors];
    this.served = 0;
    this.errors = 0;
    this.lastFlush = now;
    try {
      await this.store.addStatusCounts(this.shard, served, errors, Math.floor(now / 1000));
      return true;
    } catch (error) {
      this.served += served;
      this.errors += errors;
      this.onFlushError(error as Error);
      return false;
    }
  }
}
