// The runner's SQS stand-in behaves like SQS where the webhooks rely on it, driven by the real SDK
// client: delays, the visibility timeout (a message not deleted is offered again), receive counts,
// redrive to the dead-letter queue, batches, and SQS's own errors.
import {
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
import { startLocalSqs, type LocalSqs } from '../../infra/local/sqs.ts';
import { loadTemplate } from '../../infra/local/template.ts';

let sqs: LocalSqs;
let client: SQSClient;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sqs = await startLocalSqs(loadTemplate(), { visibilityTimeoutSeconds: 1 });
  client = new SQSClient({
    endpoint: sqs.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
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
