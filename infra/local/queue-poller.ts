// Lambda's SQS event source mapping, against the runner's SQS stand-in (sqs.ts), one per queue
// (the delivery queue and the slow lane's have one each): up to MaximumConcurrency pollers each
// receive a batch of up to BatchSize messages (which hides them for the queue's visibility timeout),
// invoke the function, and delete what it handled: every message when it returns, all but its
// batchItemFailures with ReportBatchItemFailures, none when it throws
// or times out (they are offered again when their visibility timeout ends, and the queue's redrive
// policy moves them to the dead-letter queue after maxReceiveCount receives). A timeout is Lambda's:
// the invocation is ended at the function's Timeout and its environment with it (lambdas.ts);
// the poller is free again then, while the batch stays hidden for the rest of its visibility timeout.
import type { SQSEvent } from 'aws-lambda';
import type { QueueSource } from './event-sources.ts';
import { type Outcome, PAYLOAD_LIMIT_BYTES, payloadBytes } from './lambdas.ts';
import type { LocalQueues, QueueMessage } from './sqs.ts';

export interface QueuePollerOptions {
  queues: LocalQueues;
  sources: QueueSource[];
  invoke(functionId: string, handler: string, event: unknown): Promise<Outcome>;
  log(line: string): void;
  /** Pollers per mapping; default: its MaximumConcurrency, as deployed. */
  concurrency?: number;
}

export const sqsEventOf = (queues: LocalQueues, queue: string, messages: QueueMessage[]): SQSEvent => ({
  Records: messages.map((m) => ({
    messageId: m.messageId,
    receiptHandle: m.receiptHandle!,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(m.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? m.sentAt),
    },
    messageAttributes: {},
    md5OfBody: m.md5,
    eventSource: 'aws:sqs',
    eventSourceARN: queues.arnOf(queue),
    awsRegion: 'us-east-1',
  })),
});

export function startQueuePoller(o: QueuePollerOptions): { stop(): Promise<void> } {
  let stopped = false;
  const loops: Promise<void>[] = [];
  for (const source of o.sources) {
    const queue = o.queues.get(source.queue);
    if (!queue) continue;
    // As many batches in flight as the mapping's MaximumConcurrency allows (as deployed).
    const slots = Math.max(1, o.concurrency ?? source.maxConcurrency);
    for (let i = 0; i < slots; i += 1)
      loops.push(
        (async () => {
          while (!stopped) {
            const batch = queue.receive(source.batchSize);
            if (batch.length === 0) {
              await o.queues.waitForMessage(100);
              continue;
            }
            // As Lambda does, a batch is cut short so that its event stays within the payload limit.
            let event = sqsEventOf(o.queues, source.queue, batch);
            while (batch.length > 1 && payloadBytes(event) > PAYLOAD_LIMIT_BYTES) {
              queue.release(batch.pop()!);
              event = sqsEventOf(o.queues, source.queue, batch);
            }
            const outcome = await o.invoke(source.functionId, source.handler, event);
            if (outcome.kind !== 'ok') {
              const why =
                outcome.kind === 'failure' || outcome.kind === 'error'
                  ? outcome.reason.split('\n')[0]
                  : `timed out after ${outcome.timeoutMs} ms`;
              o.log(
                `${source.functionId}: batch of ${batch.length} failed (${why}); SQS offers it again after its visibility timeout`,
              );
              continue;
            }
            const result = outcome.result as unknown as
              | { batchItemFailures?: { itemIdentifier: string }[] }
              | undefined;
            const failed = new Set(
              source.reportBatchItemFailures
                ? (result?.batchItemFailures ?? []).map((f) => f.itemIdentifier)
                : [],
            );
            for (const m of batch)
              if (!failed.has(m.messageId) && m.receiptHandle) queue.delete(m.receiptHandle);
          }
        })(),
      );
  }
  return {
    stop: async () => {
      stopped = true;
      o.queues.notify();
      // In-flight invocations end on their own (at most their Timeout); pollers stop taking more.
      await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 100))]);
    },
  };
}
