// Status counters of the News API. Every News response is recorded in memory by the dialect's
// middleware (lib/http/news.ts); a container adds its counts to one of SHARDS counter items (its
// own partition key, chosen at random per container) at most once per NEWS_COUNTER_FLUSH_MS
// (default 10 s), after a response (never on its path), and whenever the status route runs. One
// flush at a time per container; a failed flush keeps its counts and waits out the interval before
// the next try. The first flush of a shard stamps its startedAt; the earliest stamp is the
// service's start time.
import { config } from '../config.ts';
import { logger } from '../http/logger.ts';
import { DynamoNewsStore } from './dynamo-store.ts';
import type { NewsStore } from './store.ts';

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
  private flushing = false;
  private readonly shard = Math.floor(Math.random() * COUNTER_SHARDS);

  constructor(private readonly store: NewsStore) {}

  /** 2XX responses count as served, 5XX as errors; others are not counted. */
  record(status: number): void {
    if (status >= 200 && status < 300) this.served += 1;
    else if (status >= 500) this.errors += 1;
  }

  /** Flushes when counts are pending and the interval has passed. */
  async flushIfDue(now = Date.now()): Promise<void> {
    if (this.flushing || !(this.served || this.errors) || now - this.lastFlush < flushInterval()) return;
    await this.flush(now);
  }

  /** Adds the pending counts to this container's shard (one UpdateItem). Never throws: on failure the counts stay pending. */
  async flush(now = Date.now()): Promise<boolean> {
    const [served, errors] = [this.served, this.errors];
    this.served = 0; this.errors = 0; this.lastFlush = now; this.flushing = true;
    try {
      await this.store.addStatusCounts(this.shard, served, errors, Math.floor(now / 1000));
      return true;
    } catch (error) {
      this.served += served; this.errors += errors;
      logger.warn('status counters not flushed', { error: error as Error });
      return false;
    } finally {
      this.flushing = false;
    }
  }
}

export const newsCounters = new StatusCounters(new DynamoNewsStore(() => config.tableName));
