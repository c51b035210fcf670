// The live stream function's batch work (lib/notes/live/stream-work.ts): notes worked on at once
// (bounded), one note's failure reported alone as the earliest failed record, every other note done.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { liveKeys } from '../../../lib/data/keys.ts';
import { liveChangesOf, streamTasksOf } from '../../../lib/notes/live/adapters/stream-live.ts';
import { runStreamTasks, STREAM_CONCURRENCY } from '../../../lib/notes/live/stream-work.ts';

const update = (shortId: string, seq: number): DynamoDBRecord =>
  ({
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: String(seq),
      Keys: marshall(liveKeys.update(shortId, seq, 'r')),
      NewImage: marshall({ ...liveKeys.update(shortId, seq, 'r'), type: 'live-update' }),
    },
  }) as unknown as DynamoDBRecord;

describe('live stream batch work', () => {
  it('flushes the notes of a batch concurrently, at most STREAM_CONCURRENCY at once', async () => {
    const notes = Array.from({ length: 50 }, (_, i) => `note${String(i).padStart(6, '0')}`);
    const records = notes.flatMap((n, i) => [update(n, 100 + i), update(n, 200 + i)]);
    let running = 0;
    let most = 0;
    const flushed: string[] = [];
    const side = {
      flush: async (shortId: string) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running -= 1;
        flushed.push(shortId);
      },
      recheck: async () => {},
      purged: async () => {},
      revoked: async () => {},
    };
    const failures = await runStreamTasks(streamTasksOf(liveChangesOf(records), side));
    expect(failures).toEqual([]);
    expect(flushed.sort()).toEqual(notes); // each note once, though it had two records
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(STREAM_CONCURRENCY);
  });

  it("a note whose flush throws is reported alone (its earliest record); the others' are done", async () => {
    const records = [
      update('aaaaaaaaaa', 10),
      update('poisonedxx', 11),
      update('bbbbbbbbbb', 12),
      update('poisonedxx', 13),
    ];
    const flushed: string[] = [];
    const side = {
      flush: async (shortId: string) => {
        if (shortId === 'poisonedxx') throw new RangeError('Maximum call stack size exceeded');
        flushed.push(shortId);
      },
      recheck: async () => {},
      purged: async () => {},
      revoked: async () => {},
    };
    const failed: string[] = [];
    const failures = await runStreamTasks(streamTasksOf(liveChangesOf(records), side), {
      failed: (task) => failed.push(task.what),
    });
    expect(failures).toEqual([{ itemIdentifier: '11' }]);
    expect(flushed.sort()).toEqual(['aaaaaaaaaa', 'bbbbbbbbbb']);
    expect(failed).toEqual(['note poisonedxx']);
  });
});
