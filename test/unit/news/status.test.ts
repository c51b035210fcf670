import { describe, expect, it } from 'vitest';
import { Unavailable } from '../../../lib/domain/errors.ts';
import type { StatusStore } from '../../../lib/news/ports.ts';
import { StatusCounters } from '../../../lib/news/counters.ts';
import { StatusService } from '../../../lib/news/service.ts';
import { newsWorld, START_MS } from './fixture.ts';

const failing: StatusStore = {
  addStatusCounts: async () => {
    throw new Error('down');
  },
  readStatusShards: async () => {
    throw new Error('down');
  },
};

describe('StatusCounters and StatusService', () => {
  it('counts 2XX as served and 5XX as errors, nothing else', async () => {
    const w = newsWorld();
    for (const status of [200, 204, 404, 500, 503]) w.counters.record(status);
    expect(await w.status.status()).toMatchObject({ requestsServed: 2, errorsCount: 2 });
  });

  it('reports the uptime since the first flush of any shard', async () => {
    const w = newsWorld();
    w.counters.record(200);
    await w.counters.flushIfDue();
    w.clock.advance(42_000);
    expect((await w.status.status()).uptime).toBe(42);
  });

  it('flushes at most once per interval', async () => {
    const w = newsWorld();
    w.counters.record(200);
    await w.counters.flushIfDue();
    w.counters.record(200);
    await w.counters.flushIfDue(START_MS + 1);
    expect(w.tables.shards.size === 1 && [...w.tables.shards.values()][0].served).toBe(1);
  });

  it('keeps counts that could not be flushed, and says so', async () => {
    const errors: Error[] = [];
    const w = newsWorld();
    const counters = new StatusCounters(failing, w.clock, (e) => errors.push(e));
    counters.record(200);
    expect(await counters.flush()).toBe(false);
    expect(errors).toHaveLength(1);
  });

  it('is Unavailable when the counters cannot be read', async () => {
    const w = newsWorld();
    const status = new StatusService(failing, new StatusCounters(failing, w.clock), w.clock);
    await expect(status.status()).rejects.toBeInstanceOf(Unavailable);
  });
  it('a status read waits for the flush in flight: every response counted before it is in the sums', async () => {
    const w = newsWorld();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let writes = 0;
    const slow: StatusStore = {
      addStatusCounts: async (...args) => {
        writes += 1;
        if (writes === 1) await gate; // the flush after a response, still on its way to the table
        return w.statusStore.addStatusCounts(...args);
      },
      readStatusShards: (n) => w.statusStore.readStatusShards(n),
    };
    const counters = new StatusCounters(slow, w.clock);
    const status = new StatusService(slow, counters, w.clock);
    counters.record(200);
    const afterResponse = counters.flushIfDue();
    let read: Awaited<ReturnType<StatusService['status']>> | undefined;
    const reading = status.status().then((r) => {
      read = r;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(read, 'answered before the flush in flight reached the table').toBeUndefined();
    open();
    await Promise.all([afterResponse, reading]);
    expect(read).toMatchObject({ requestsServed: 1 });
  });

  it('a failed flush in flight fails the status read at once, without a second attempt', async () => {
    const w = newsWorld();
    let writes = 0;
    const down: StatusStore = {
      ...failing,
      addStatusCounts: async () => {
        writes += 1;
        throw new Error('down');
      },
    };
    const counters = new StatusCounters(down, w.clock);
    counters.record(200);
    const afterResponse = counters.flushIfDue();
    await expect(new StatusService(down, counters, w.clock).status()).rejects.toBeInstanceOf(Unavailable);
    await afterResponse;
    expect(writes).toBe(1);
  });
});
