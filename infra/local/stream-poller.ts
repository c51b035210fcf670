// Lambda's DynamoDB Streams event source mapping, against DynamoDB Local's stream: each shard is
// read in order (GetRecords every 200 ms); each mapping keeps the records its FilterCriteria pass,
// invokes its function with batches of up to BatchSize records, and when an invocation fails (or,
// with ReportBatchItemFailures, names records that failed: those from the lowest named on) retries
// it (up to MaximumRetryAttempts, halving the batch first when BisectBatchOnFunctionError is set),
// then gives up on it by sending a record of the batch to its OnFailure queue, as Lambda does. One
// batch at a time per mapping, so records reach a function in stream order.
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { passesFilters } from './event-filter.ts';
import type { StreamSource } from './event-sources.ts';
import type { Outcome } from './lambdas.ts';
import type { LocalQueues } from './sqs.ts';

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  sources: StreamSource[];
  invoke(functionId: string, handler: string, event: unknown): Promise<Outcome>;
  queues: LocalQueues;
  log(line: string): void;
  clientConfig: NonNullable<ConstructorParameters<typeof DynamoDBClient>[0]>;
  pollMs?: number;
  /** First wait between retries of a failed batch (doubles, at most 2 s). */
  retryBaseMs?: number;
  /** The Streams client (default: one from clientConfig; tests pass one that fails on purpose). */
  streams?: DynamoDBStreamsClient;
}

export interface StreamPoller {
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stream record as Lambda hands it to a function. */
export function toLambdaRecord(r: _Record, streamArn: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: r.awsRegion ?? 'us-east-1',
    eventSourceARN: streamArn,
    ...(r.userIdentity ? { userIdentity: r.userIdentity } : {}),
    dynamodb: {
      ...(d as object),
      ApproximateCreationDateTime: d.ApproximateCreationDateTime
        ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
    } as DynamoDBRecord['dynamodb'],
  };
}

export class StreamMapping {
  private pending: DynamoDBRecord[] = [];
  private running: Promise<void> = Promise.resolve();
  constructor(
    private readonly source: StreamSource,
    private readonly o: StreamPollerOptions,
    private readonly stopped: () => boolean,
  ) {}

  offer(records: DynamoDBRecord[]): void {
    const kept = records.filter((r) => passesFilters(this.source.filters, r));
    if (kept.length === 0) return;
    this.pending.push(...kept);
    this.running = this.running.then(() => this.drain());
  }

  idle(): Promise<void> {
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.length && !this.stopped()) {
      const batch = this.pending.splice(0, this.source.batchSize);
      await this.process(batch, 0);
    }
  }

  /**
   * Invokes until it succeeds, bisecting a failing batch; gives the batch up after MaximumRetryAttempts.
   * With ReportBatchItemFailures a function that returns normally may name the records that failed:
   * as Lambda does, the lowest sequence number named is the checkpoint, and the records from it on
   * are retried (an item it cannot read fails the whole batch).
   */
  private async process(all: DynamoDBRecord[], attempt: number): Promise<void> {
    const { functionId, handler } = this.source;
    const outcome = await this.o.invoke(functionId, handler, { Records: all });
    if (this.stopped()) return;
    let batch = all;
    let why: string;
    if (outcome.kind === 'ok') {
      const from = this.source.reportBatchItemFailures ? failedFrom(all, outcome.result) : undefined;
      if (from === undefined) return;
      batch = all.slice(from);
      why = `${batch.length} of ${all.length} records reported failed`;
    } else
      why =
        outcome.kind === 'failure' || outcome.kind === 'error'
          ? outcome.reason.split('\n')[0]
          : `timed out after ${outcome.timeoutMs} ms`;
    this.o.log(`${functionId}: stream batch of ${all.length} failed (${why})`);
    if (attempt >= this.source.maxRetries) return this.giveUp(batch, why);
    await sleep(Math.min(2000, (this.o.retryBaseMs ?? 100) * 2 ** attempt));
    if (this.source.bisect && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await this.process(batch.slice(0, half), attempt + 1);
      await this.process(batch.slice(half), attempt + 1);
      return;
    }
    await this.process(batch, attempt + 1);
  }

  private giveUp(batch: DynamoDBRecord[], why: string): void {
    const queue = this.source.onFailureQueue ? this.o.queues.get(this.source.onFailureQueue) : undefined;
    this.o.log(
      `${this.source.functionId}: gave up on ${batch.length} stream records${queue ? ` (to ${queue.name})` : ''}`,
    );
    queue?.send(
      JSON.stringify({
        requestContext: {
          condition: 'RetryAttemptsExhausted',
          functionArn: this.source.functionId,
          reason: why,
        },
        DDBStreamBatchInfo: {
          batchSize: batch.length,
          startSequenceNumber: batch[0].dynamodb?.SequenceNumber,
          endSequenceNumber: batch.at(-1)?.dynamodb?.SequenceNumber,
          streamArn: batch[0].eventSourceARN,
        },
      }),
    );
  }
}

/**
 * Where a partial batch response makes the batch fail (Lambda's checkpoint: the lowest sequence
 * number named): undefined when nothing failed, 0 when an item names no record of the batch.
 */
function failedFrom(batch: DynamoDBRecord[], result: unknown): number | undefined {
  const failures = (result as { batchItemFailures?: { itemIdentifier?: unknown }[] } | undefined)
    ?.batchItemFailures;
  if (!Array.isArray(failures) || failures.length === 0) return undefined;
  let from = batch.length;
  for (const f of failures) {
    const i = batch.findIndex((r) => r.dynamodb?.SequenceNumber === f?.itemIdentifier);
    if (i < 0) return 0;
    from = Math.min(from, i);
  }
  return from;
}

export async function startStreamPoller(o: StreamPollerOptions): Promise<StreamPoller> {
  let stopped = false;
  const mappings = o.sources.map((s) => new StreamMapping(s, o, () => stopped));
  const dynamo = new DynamoDBClient(o.clientConfig);
  const streams = o.streams ?? new DynamoDBStreamsClient(o.clientConfig);
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: o.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn || mappings.length === 0) {
    streams.destroy();
    return { stop: async () => {} };
  }
  const iterators = new Map<string, string | undefined>();
  const seen = new Set<string>();
  const discover = async (type: 'LATEST' | 'TRIM_HORIZON') => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || seen.has(shard.ShardId)) continue;
      seen.add(shard.ShardId);
      if (type === 'LATEST' && shard.SequenceNumberRange?.EndingSequenceNumber) continue; // closed before we began
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: type,
        }),
      );
      iterators.set(shard.ShardId, ShardIterator);
    }
  };
  await discover('LATEST');
  const read = (iterator: string) =>
    streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
  /** The newest record of each shard handed to the mappings (a repositioned iterator skips up to it). */
  const lastSeen = new Map<string, { n: bigint; s: string }>();
  /**
   * A shard iterator that can no longer be read, replaced as Lambda's event source mapping does: an
   * expired one (15 minutes old) resumes after the last record read; one whose records were trimmed
   * resumes at the oldest record left (the trimmed ones are lost, as in AWS, and logged). Records
   * already handed on are skipped (lastSeen). Any other error: undefined (the loop retries it).
   */
  const reposition = async (shardId: string, err: unknown): Promise<string | undefined> => {
    const name = (err as Error).name;
    if (name !== 'ExpiredIteratorException' && name !== 'TrimmedDataAccessException') return undefined;
    const last = lastSeen.get(shardId);
    const after = name === 'ExpiredIteratorException' && last !== undefined;
    o.log(
      `stream poller: ${name} on ${shardId}: reading again from ${after ? 'the last record read' : 'the oldest record left'}`,
    );
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last.s }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  };
  const loop = (async () => {
    while (!stopped) {
      try {
        let closed = false;
        for (const [shardId, iterator] of iterators) {
          if (!iterator) continue;
          let out: Awaited<ReturnType<typeof read>>;
          try {
            out = await read(iterator);
          } catch (err) {
            const fresh = await reposition(shardId, err);
            if (!fresh) throw err;
            iterators.set(shardId, fresh);
            continue;
          }
          iterators.set(shardId, out.NextShardIterator);
          if (!out.NextShardIterator) closed = true;
          const last = lastSeen.get(shardId);
          const unseen = (out.Records ?? []).filter(
            (r) => last === undefined || BigInt(r.dynamodb?.SequenceNumber ?? '0') > last.n,
          );
          const newest = unseen.at(-1)?.dynamodb?.SequenceNumber;
          if (newest) lastSeen.set(shardId, { n: BigInt(newest), s: newest });
          const records = unseen.map((r) => toLambdaRecord(r, streamArn));
          if (records.length) for (const m of mappings) m.offer(records);
        }
        if (closed) await discover('TRIM_HORIZON');
      } catch (err) {
        if (!stopped) o.log(`stream poller: ${(err as Error).message}`);
      }
      await sleep(o.pollMs ?? 200);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      streams.destroy();
    },
  };
}
