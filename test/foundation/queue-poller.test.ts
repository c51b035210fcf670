// The runner's SQS event source mapping (queue-poller.ts) as Lambda's: batches of up to BatchSize
// messages, never an event over Lambda's 6 MB invocation payload (a batch of large messages is cut
// short, the rest come in the next batch, their receive counts untouched), and up to
// MaximumConcurrency batches in flight at once.
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYLOAD_LIMIT_BYTES, payloadBytes } from '../../infra/local/lambdas.ts';
import { startQueuePoller } from '../../infra/local/queue-poller.ts';
import { startLocalSqs, type LocalSqs } from '../../infra/local/sqs.ts';
import { loadTemplate } from '../../infra/local/template.ts';

let sqs: LocalSqs;
beforeAll(async () => {
  sqs = await startLocalSqs(loadTemplate(), { visibilityTimeoutSeconds: 30 });
});
afterAll(() => sqs.close());

const source = (maxConcurrency: number) => ({
  functionId: 'Deliver',
  handler: 'handler',
  queue: 'WebhookDeliveryQueue',
  batchSize: 10,
  reportBatchItemFailures: true,
  maxConcurrency,
});

it('cuts a batch of large messages short to stay within the 6 MB payload; every message once', async () => {
  const queue = sqs.queues.get('WebhookDeliveryQueue')!;
  for (let i = 0; i < 10; i += 1) queue.send(`${i}:${'x'.repeat(1_000_000)}`);
  const events: SQSEvent[] = [];
  const poller = startQueuePoller({
    queues: sqs.queues,
    sources: [source(1)],
    log: () => {},
    invoke: async (_id, _handler, event) => {
      events.push(event as SQSEvent);
      return { kind: 'ok', result: {} as never, meter: { requests: 0, capacity: 0 } as never };
    },
  });
  try {
    const deadline = Date.now() + 10_000;
    while (queue.messages.length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await poller.stop();
  }
  expect(queue.messages).toEqual([]);
  expect(events.length).toBeGreaterThanOrEqual(2);
  for (const e of events) expect(payloadBytes(e)).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
  const records = events.flatMap((e) => e.Records);
  expect(records.map((r) => r.body.split(':')[0]).sort()).toEqual(
    Array.from({ length: 10 }, (_, i) => `${i}`),
  );
  expect(records.every((r) => r.attributes.ApproximateReceiveCount === '1')).toBe(true);
});

it("runs as many batches at once as the mapping's MaximumConcurrency", async () => {
  const queue = sqs.queues.get('WebhookDeliveryQueue')!;
  let inFlight = 0;
  let most = 0;
  const poller = startQueuePoller({
    queues: sqs.queues,
    sources: [source(20)],
    log: () => {},
    invoke: async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 2_000));
      inFlight -= 1;
      return { kind: 'ok', result: {} as never, meter: { requests: 0, capacity: 0 } as never };
    },
  });
  try {
    // 30 sends, one at a time: each poller takes what is there, so up to 20 batches are in flight.
    for (let i = 0; i < 30; i += 1) {
      queue.send(`m${i}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const deadline = Date.now() + 20_000;
    while (queue.messages.length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await poller.stop();
  }
  expect(queue.messages).toEqual([]);
  expect(most).toBe(20);
});
