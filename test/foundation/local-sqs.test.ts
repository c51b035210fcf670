// The runner's SQS stand-in behaves like SQS where the webhooks rely on it, driven by the real SDK
// client: delays, the visibility timeout (a message not deleted is offered again), receive counts,
// redrive to the dead-letter queue, batches, and SQS's own errors; it refuses what SQS refuses
// (sizes, characters) and, with a data folder, keeps its messages across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchRequestTooLong,
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  QueueDoesNotExist,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, startLocalSqs, type LocalSqs } from '../../infra/local/sqs.ts';
import { loadTemplate } from '../../infra/local/template.ts';

let sqs: LocalSqs;
let client: SQSClient;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clientOf = (s: LocalSqs) =>
  new SQSClient({
    endpoint: s.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

beforeAll(async () => {
  sqs = await startLocalSqs(loadTemplate(), { visibilityTimeoutSeconds: 1 });
  client = clientOf(sqs);
});
afterAll(async () => {
  client?.destroy();
  await sqs?.close();
});

const queue = () => sqs.env.WEBHOOK_QUEUE_URL;
const dlq = () => sqs.env.WEBHOOK_DLQ_URL;
const receive = async (url: string, max = 10) =>
  (
    await client.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: max,
        MessageSystemAttributeNames: ['All'],
      }),
    )
  ).Messages ?? [];

describe('local SQS (stand-in) through the AWS SDK', () => {
  it("serves the template's queues and names them in the functions' variables", () => {
    expect(queue()).toMatch(/\/WebhookDeliveryQueue$/);
    expect(dlq()).toMatch(/\/WebhookDeadLetterQueue$/);
  });

  it('sends (MD5 checked by the SDK), receives, hides for the visibility timeout, deletes', async () => {
    await client.send(new SendMessageCommand({ QueueUrl: queue(), MessageBody: '{"a":1}' }));
    const [m] = await receive(queue());
    expect(m.Body).toBe('{"a":1}');
    expect(m.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(await receive(queue())).toEqual([]); // invisible now
    await sleep(1100);
    const [again] = await receive(queue());
    expect(again.MessageId).toBe(m.MessageId);
    expect(again.Attributes?.ApproximateReceiveCount).toBe('2');
    await client.send(new DeleteMessageCommand({ QueueUrl: queue(), ReceiptHandle: again.ReceiptHandle }));
    await sleep(1100);
    expect(await receive(queue())).toEqual([]);
  });

  it('holds a delayed message back until its delay is over; ChangeMessageVisibility shows it early', async () => {
    await client.send(new SendMessageCommand({ QueueUrl: queue(), MessageBody: 'later', DelaySeconds: 2 }));
    expect(await receive(queue())).toEqual([]);
    const attrs = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: queue(), AttributeNames: ['All'] }),
    );
    expect(attrs.Attributes?.ApproximateNumberOfMessagesDelayed).toBe('1');
    await sleep(2100);
    const [m] = await receive(queue());
    expect(m.Body).toBe('later');
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queue(),
        ReceiptHandle: m.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    const [shown] = await receive(queue());
    expect(shown.MessageId).toBe(m.MessageId);
    await client.send(new DeleteMessageCommand({ QueueUrl: queue(), ReceiptHandle: shown.ReceiptHandle }));
  });

  it('moves a message received maxReceiveCount (5) times to the dead-letter queue', async () => {
    await client.send(new SendMessageCommand({ QueueUrl: queue(), MessageBody: 'poison' }));
    for (let i = 1; i <= 5; i += 1) {
      const [m] = await receive(queue());
      expect(m?.Attributes?.ApproximateReceiveCount).toBe(String(i));
      await client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queue(),
          ReceiptHandle: m.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    }
    expect(await receive(queue())).toEqual([]);
    const [dead] = await receive(dlq());
    expect(dead.Body).toBe('poison');
    await client.send(new DeleteMessageCommand({ QueueUrl: dlq(), ReceiptHandle: dead.ReceiptHandle }));
  });

  it('sends batches of up to 10; an unknown queue is QueueDoesNotExist', async () => {
    const out = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queue(),
        Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: `m${i}` })),
      }),
    );
    expect(out.Successful).toHaveLength(10);
    const got = await receive(queue());
    expect(got.map((m) => m.Body).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
    for (const m of got)
      await client.send(new DeleteMessageCommand({ QueueUrl: queue(), ReceiptHandle: m.ReceiptHandle }));
    await expect(
      client.send(
        new SendMessageCommand({ QueueUrl: `${sqs.endpoint}/000000000000/Nope`, MessageBody: 'x' }),
      ),
    ).rejects.toBeInstanceOf(QueueDoesNotExist);
  });
});

describe('local SQS refuses what SQS refuses, with its errors', () => {
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('accepted');
      },
      (err: Error & { Code?: string; $metadata?: { httpStatusCode?: number } }) => err,
    );

  it('takes a message of exactly 1 MiB and refuses one byte more (InvalidParameterValue, 400)', async () => {
    expect(MAX_MESSAGE_BYTES).toBe(1_048_576);
    // Multi-byte characters: the limit counts UTF-8 bytes, not characters.
    const fits = 'é'.repeat(MAX_MESSAGE_BYTES / 2);
    await client.send(new SendMessageCommand({ QueueUrl: queue(), MessageBody: fits }));
    const err = await failure(
      client.send(new SendMessageCommand({ QueueUrl: queue(), MessageBody: `${fits}x` })),
    );
    expect(err.name).toBe('InvalidParameterValue');
    expect(err.$metadata?.httpStatusCode).toBe(400);
    expect(err.message).toBe(
      'One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.',
    );
    const [m] = await receive(queue());
    expect(m.Body).toBe(fits);
    await client.send(new DeleteMessageCommand({ QueueUrl: queue(), ReceiptHandle: m.ReceiptHandle }));
    expect(await receive(queue())).toEqual([]);
  });

  it('refuses a batch whose messages add up to more than 1 MiB (BatchRequestTooLong), sending none', async () => {
    const tenth = 'a'.repeat(MAX_MESSAGE_BYTES / 10 + 1);
    const err = await failure(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: queue(),
          Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: tenth })),
        }),
      ),
    );
    expect(err).toBeInstanceOf(BatchRequestTooLong);
    expect(err.message).toMatch(/cannot be longer than 1048576 bytes/);
    expect(await receive(queue())).toEqual([]);
  });

  it('refuses 11 entries, repeated ids and an empty batch; a body SQS cannot hold fails alone', async () => {
    const batch = (Entries: { Id: string; MessageBody: string }[]) =>
      client.send(new SendMessageBatchCommand({ QueueUrl: queue(), Entries }));
    expect(
      (await failure(batch(Array.from({ length: 11 }, (_, i) => ({ Id: String(i), MessageBody: 'm' })))))
        .name,
    ).toBe('TooManyEntriesInBatchRequest');
    expect(
      (
        await failure(
          batch([
            { Id: 'a', MessageBody: 'm' },
            { Id: 'a', MessageBody: 'n' },
          ]),
        )
      ).name,
    ).toBe('BatchEntryIdsNotDistinct');
    expect((await failure(batch([]))).name).toBe('EmptyBatchRequest');
    const out = await batch([
      { Id: 'ok', MessageBody: 'fine' },
      { Id: 'nul', MessageBody: 'a\u0000b' },
    ]);
    expect(out.Successful?.map((s) => s.Id)).toEqual(['ok']);
    expect(out.Failed).toEqual([
      expect.objectContaining({ Id: 'nul', SenderFault: true, Code: 'InvalidMessageContents' }),
    ]);
    const got = await receive(queue());
    expect(got.map((m) => m.Body)).toEqual(['fine']);
    await client.send(new DeleteMessageCommand({ QueueUrl: queue(), ReceiptHandle: got[0].ReceiptHandle }));
  });
});

describe('local SQS with a data folder (npm start)', () => {
  it('keeps pending messages across a restart: delays, receive counts and hidden messages as they were', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tri-api-sqs-'));
    const kept = (s: LocalSqs) =>
      s.queues
        .get('WebhookDeliveryQueue')!
        .messages.map(({ messageId, body, sentAt, visibleAt, receiveCount }) => ({
          messageId,
          body,
          sentAt,
          visibleAt,
          receiveCount,
        }))
        .sort((a, b) => a.body.localeCompare(b.body));
    try {
      const first = await startLocalSqs(loadTemplate(), { dataDir, visibilityTimeoutSeconds: 1 });
      const c1 = clientOf(first);
      const url = first.env.WEBHOOK_QUEUE_URL;
      await c1.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retry later', DelaySeconds: 1 }));
      await c1.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'in flight' }));
      const [inFlight] = (await c1.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages!;
      expect(inFlight.Body).toBe('in flight');
      const before = kept(first);
      c1.destroy();
      await first.close();

      const second = await startLocalSqs(loadTemplate(), { dataDir, visibilityTimeoutSeconds: 1 });
      const c2 = clientOf(second);
      try {
        // The same messages, hidden until the same moments (a delay, a visibility timeout) as before.
        expect(kept(second)).toEqual(before);
        await sleep(Math.max(...before.map((m) => m.visibleAt)) - Date.now() + 100);
        const got = (
          await c2.send(
            new ReceiveMessageCommand({
              QueueUrl: second.env.WEBHOOK_QUEUE_URL,
              MaxNumberOfMessages: 10,
              MessageSystemAttributeNames: ['All'],
            }),
          )
        ).Messages!;
        const byBody = Object.fromEntries(got.map((m) => [m.Body, m]));
        expect(Object.keys(byBody).sort()).toEqual(['in flight', 'retry later']);
        expect(byBody['in flight'].MessageId).toBe(inFlight.MessageId);
        expect(byBody['in flight'].Attributes?.ApproximateReceiveCount).toBe('2');
        expect(byBody['retry later'].Attributes?.ApproximateReceiveCount).toBe('1');
      } finally {
        c2.destroy();
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
