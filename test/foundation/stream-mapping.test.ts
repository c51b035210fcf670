// The runner's stream event source mapping behaves like Lambda's: filter criteria, batches of at
// most BatchSize in stream order, retries of a failing batch bisected down to the record that fails,
// and that record (only) given up on into the on-failure queue after MaximumRetryAttempts.
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { StreamSource } from '../../infra/local/event-sources.ts';
import type { Outcome } from '../../infra/local/lambdas.ts';
import { LocalQueues } from '../../infra/local/sqs.ts';
import { StreamMapping } from '../../infra/local/stream-poller.ts';

const record = (n: number, type = 'note'): DynamoDBRecord => ({
  eventID: `e${n}`,
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(n), NewImage: { type: { S: type } } },
});

/** `fails`: true fails the invocation; a list of ids returns them as a partial batch response. */
function mapping(source: Partial<StreamSource>, fails: (ids: string[]) => boolean | string[]) {
  const batches: string[][] = [];
  const queues = new LocalQueues();
  const dlq = queues.define('Dlq', { visibilityTimeoutSeconds: 30 });
  const m = new StreamMapping(
    {
      functionId: 'F',
      handler: 'handler',
      batchSize: 4,
      maxRetries: 3,
      bisect: true,
      filters: ['{"dynamodb":{"NewImage":{"type":{"S":["note"]}}}}'],
      onFailureQueue: 'Dlq',
      ...source,
    },
    {
      endpoint: '',
      tableName: '',
      sources: [],
      clientConfig: {},
      queues,
      log: () => {},
      retryBaseMs: 1,
      invoke: async (_id, _h, event): Promise<Outcome> => {
        const ids = (event as { Records: DynamoDBRecord[] }).Records.map((r) => r.eventID!);
        batches.push(ids);
        const failed = fails(ids);
        if (failed === true) return { kind: 'failure', reason: 'boom' };
        const result = Array.isArray(failed)
          ? { batchItemFailures: failed.map((id) => ({ itemIdentifier: id.slice(1) })) }
          : {};
        return { kind: 'ok', result: result as never, meter: { requests: 0, capacity: 0, operations: [] } };
      },
    },
    () => false,
  );
  return { m, batches, dlq };
}

describe('stream event source mapping (local)', () => {
  it('passes only records that match the filters, in batches of BatchSize, in order', async () => {
    const { m, batches } = mapping({}, () => false);
    m.offer([1, 2, 3, 4, 5, 6].map((n) => record(n)).concat(record(7, 'note-content')));
    await m.idle();
    expect(batches).toEqual([
      ['e1', 'e2', 'e3', 'e4'],
      ['e5', 'e6'],
    ]);
  });

  it('bisects a failing batch until the failing record is alone, retries it, then gives it up to the on-failure queue', async () => {
    const { m, batches, dlq } = mapping({}, (ids) => ids.includes('e3'));
    m.offer([1, 2, 3, 4].map((n) => record(n)));
    await m.idle();
    expect(batches[0]).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(batches).toContainEqual(['e1', 'e2']);
    expect(batches).toContainEqual(['e4']);
    expect(batches.filter((b) => b.length === 1 && b[0] === 'e3').length).toBeGreaterThanOrEqual(1);
    const [failure] = dlq.messages.map((msg) => JSON.parse(msg.body));
    expect(dlq.messages).toHaveLength(1);
    expect(failure).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted' },
      DDBStreamBatchInfo: { batchSize: 1, startSequenceNumber: '3', endSequenceNumber: '3' },
    });
  });

  it('without bisection retries the whole batch MaximumRetryAttempts times', async () => {
    let calls = 0;
    const { m, dlq } = mapping({ bisect: false, maxRetries: 2 }, () => {
      calls += 1;
      return calls <= 10;
    });
    m.offer([1, 2].map((n) => record(n)));
    await m.idle();
    expect(calls).toBe(3);
    expect(JSON.parse(dlq.messages[0].body).DDBStreamBatchInfo.batchSize).toBe(2);
  });

  it('with ReportBatchItemFailures retries only from the lowest record named, then gives that one up', async () => {
    const { m, batches, dlq } = mapping({ reportBatchItemFailures: true, maxRetries: 2 }, (ids) =>
      ids.filter((id) => id === 'e3'),
    );
    m.offer([1, 2, 3, 4].map((n) => record(n)));
    await m.idle();
    expect(batches[0]).toEqual(['e1', 'e2', 'e3', 'e4']);
    // e1 and e2 succeeded: never sent again; e3 on is retried (bisected), e4 alone passes.
    expect(batches.slice(1).flat()).not.toContain('e1');
    expect(batches.slice(1).flat()).not.toContain('e2');
    expect(batches[1]).toEqual(['e3']);
    expect(batches).toContainEqual(['e4']);
    expect(dlq.messages).toHaveLength(1);
    expect(JSON.parse(dlq.messages[0].body).DDBStreamBatchInfo).toMatchObject({
      batchSize: 1,
      startSequenceNumber: '3',
    });
  });

  it('a partial batch response is ignored without ReportBatchItemFailures (as Lambda does)', async () => {
    const { m, batches, dlq } = mapping({}, () => ['e3']);
    m.offer([1, 2, 3, 4].map((n) => record(n)));
    await m.idle();
    expect(batches).toHaveLength(1);
    expect(dlq.messages).toHaveLength(0);
  });
});
