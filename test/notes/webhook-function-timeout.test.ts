// A webhook delivery FUNCTION that runs past its Lambda Timeout loses no event.
// The receiver-side hang (webhook-delivery.test.ts) ends at the attempt deadline inside the
// function; here the function itself hangs, so only the runner's Timeout ends it, as Lambda's SQS
// event source mapping sees it: the invocation is ended at the function's Timeout, its
// environment discarded, the batch not deleted; SQS offers it again after the queue's visibility
// timeout (ApproximateReceiveCount grows), and the redrive policy moves it to the dead-letter queue
// after maxReceiveCount receives.
//
// A runner of its own (this process), on a table of its own in the run's DynamoDB Local (the shared
// runner would route the same stream records too), with the template's real functions, except that
// the delivery function is test/fixtures/functions/deliver-webhooks-hangs.ts (the real handler
// behind a gate that hangs on a note titled `hang-once` / `hang-always`), its Timeout 3 s instead of
// 60 s and the delivery queue's visibility timeout 6 s instead of 360 s (the same ordering: visibility
// above the Timeout, as AWS requires).
import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runner, startRunner } from '../../infra/local/runner.ts';
import { ensureTable, freePort, localClientConfig } from '../../infra/local/services.ts';
import { functionEnvironment, type LocalStack } from '../../infra/local/stack.ts';
import { loadTemplate, type Template } from '../../infra/local/template.ts';
import { SEEN_RECEIVE, type SeenReceive } from '../fixtures/functions/deliver-webhooks-hangs.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call, createNote } from './helpers.ts';

const TIMEOUT_S = 3;
// Longer than a cold function's load on a busy machine (2 cores at load 10+), so the first receive is
// never hidden and offered again before the handler runs: the counts below are then exact.
const VISIBILITY_S = 12;
const DELIVER = 'NotesDeliverWebhooksFunction';

const real = loadTemplate();
const keep = [
  'NotesApi',
  'NotesCreateWebhookFunction',
  'NotesCreateNoteFunction',
  'NotesListWebhookDeliveriesFunction',
  'NotesRouteWebhookEventsFunction',
  DELIVER,
  'WebhookDeliveryQueue',
  'WebhookDeadLetterQueue',
];
const template: Template = structuredClone({
  ...real,
  Resources: Object.fromEntries(keep.map((id) => [id, real.Resources[id]])),
});
template.Resources[DELIVER].Metadata!.BuildProperties.EntryPoints = [
  'test/fixtures/functions/deliver-webhooks-hangs.ts',
];
template.Resources[DELIVER].Properties!.Timeout = TIMEOUT_S;
template.Resources.WebhookDeliveryQueue.Properties!.VisibilityTimeout = VISIBILITY_S;
const MAX_RECEIVES = Number(
  template.Resources.WebhookDeliveryQueue.Properties!.RedrivePolicy.maxReceiveCount,
);

/** The receives the delivery function saw, as it told them in its output. */
const received: SeenReceive[] = [];
const seen = () => received;
const receivesOf = (title: string) => seen().filter((s) => s.title === title);

let runner: Runner;
const lines: string[] = [];
const environment = { ...process.env };
const receivers: Receiver[] = [];

beforeAll(async () => {
  const port = await freePort();
  const tableName = `tri-api-timeout-${randomUUID().slice(0, 8)}`;
  await ensureTable(process.env.LOCAL_DYNAMODB_ENDPOINT!, tableName, real);
  const stack = {
    dynamoEndpoint: process.env.LOCAL_DYNAMODB_ENDPOINT!,
    s3Endpoint: process.env.LOCAL_S3_ENDPOINT!,
    tableName,
    bucketName: process.env.BUCKET_NAME!,
    secrets: {
      internalApiKey: process.env.INTERNAL_API_KEY!,
      csrfSigningSecret: process.env.CSRF_SIGNING_SECRET!,
      mfaEncryptionKey: process.env.MFA_ENCRYPTION_KEY!,
    },
  } as LocalStack;
  // The queue's own visibility timeout (above), not the shared runner's override.
  delete process.env.LOCAL_QUEUE_VISIBILITY_SECONDS;
  runner = await startRunner({
    port,
    env: functionEnvironment(stack, `http://localhost:${port}`),
    s3Endpoint: stack.s3Endpoint,
    bucketName: stack.bucketName,
    template,
    log: (line) => lines.push(line),
    functionOutput: ({ text }) => {
      if (text.startsWith(SEEN_RECEIVE)) received.push(JSON.parse(text.slice(SEEN_RECEIVE.length)));
    },
  });
  // This file's HTTP calls (and its users, process.env.TABLE_NAME) go to this runner and its table.
  process.env.TEST_BASE_URL = runner.url;
  await runner.bundles.buildAll(); // a first build must not eat into the visibility timeout
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await runner?.close();
  // This process's variables as they were (the runner set its table, queues and URL).
  for (const key of Object.keys(process.env)) if (!(key in environment)) delete process.env[key];
  Object.assign(process.env, environment);
});

const hookFor = async (user: TestUser, url: string) => {
  const res = await call('POST', '/v1/webhooks', {
    token: user.token,
    body: { url, scope: { type: 'workspace' } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
};

async function until<T>(what: string, get: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = get();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const timedOutLine = `${DELIVER} timed out after ${TIMEOUT_S}.0 s: environment discarded`;
const timeouts = () => lines.filter((l) => l === timedOutLine).length;

describe('a delivery function that runs past its Timeout', { timeout: 120_000 }, () => {
  it('is abandoned at its Timeout; the batch comes back after the visibility timeout and the event is delivered once', async () => {
    const me = await newUser('Timed Out Once');
    const rx = await startReceiver();
    receivers.push(rx);
    const hook = await hookFor(me, rx.url);
    const before = timeouts();
    await createNote(me.token, { content: '# hang-once' });

    const first = await until('the first receive', () => receivesOf('hang-once')[0]);
    expect(first.receiveCount).toBe(1);
    // The runner gives up on the invocation at the function's Timeout (3 s), not before, and leaves
    // the message in the queue, hidden for the rest of its visibility timeout.
    await until('the timeout', () => (timeouts() > before ? true : undefined));
    expect(Date.now() - first.at).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
    const queue = runner.events.sqs.queues.get('WebhookDeliveryQueue')!;
    const held = queue.messages.find((m) => m.messageId === first.messageId);
    expect(held).toMatchObject({ receiveCount: 1 });
    expect(held!.visibleAt).toBeGreaterThan(Date.now());
    expect(rx.received).toHaveLength(0);

    const [got] = await rx.waitFor(1, 30_000);
    const event = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as Record<
      string,
      any
    >;
    expect(event).toMatchObject({ type: 'note.created', data: { note: { title: 'hang-once' } } });
    const [, second, ...more] = receivesOf('hang-once');
    expect(more).toEqual([]);
    // The same message, received a second time (ApproximateReceiveCount 2), once its visibility
    // timeout (counted from the first receive, before the invocation's init) was over, in a new
    // environment (the timed-out one was discarded).
    expect(second).toMatchObject({ messageId: first.messageId, receiveCount: 2 });
    expect(held!.firstReceivedAt! + VISIBILITY_S * 1000).toBeLessThanOrEqual(second.at);
    expect(second.environment).not.toBe(first.environment);

    // Exactly once: the abandoned invocation sent and logged nothing, and nothing more comes.
    await new Promise((r) => setTimeout(r, (VISIBILITY_S + 1) * 1000));
    expect(rx.received).toHaveLength(1);
    expect(queue.messages.find((m) => m.messageId === first.messageId)).toBeUndefined();
    const log = (await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: me.token })).body.data;
    expect(log.map((d: Record<string, unknown>) => [d.status, d.attemptKind, d.httpStatus])).toEqual([
      ['success', 'event', 204],
    ]);
  });

  it(`one that always times out goes to the dead-letter queue after ${MAX_RECEIVES} receives, never sent`, async () => {
    const me = await newUser('Always Timed Out');
    const rx = await startReceiver();
    receivers.push(rx);
    const hook = await hookFor(me, rx.url);
    await createNote(me.token, { content: '# hang-always' });

    const dlq = new SQSClient(localClientConfig(runner.events.sqs.endpoint));
    try {
      const deadline = Date.now() + (MAX_RECEIVES + 3) * (VISIBILITY_S + TIMEOUT_S) * 1000;
      let dead: { messageId: string; job: Record<string, any> } | undefined;
      while (!dead) {
        if (Date.now() > deadline) throw new Error(`not dead-lettered:\n${lines.join('\n')}`);
        const { Messages = [] } = await dlq.send(
          new ReceiveMessageCommand({
            QueueUrl: runner.events.sqs.env.WEBHOOK_DLQ_URL,
            MaxNumberOfMessages: 10,
          }),
        );
        const m = Messages.find((x) => JSON.parse(x.Body!).hookId === hook.id);
        if (m) dead = { messageId: m.MessageId!, job: JSON.parse(m.Body!) };
        else await new Promise((r) => setTimeout(r, 500));
      }
      // The job as the router queued it (attempt 1): the redrive moved the message itself.
      expect(dead.job).toMatchObject({ hookId: hook.id, eventType: 'note.created', attempt: 1 });
      const receives = receivesOf('hang-always');
      expect(receives.map((r) => r.receiveCount)).toEqual(
        Array.from({ length: MAX_RECEIVES }, (_, i) => i + 1),
      );
      expect(new Set(receives.map((r) => r.messageId))).toEqual(new Set([dead.messageId]));
      expect(new Set(receives.map((r) => r.environment)).size).toBe(MAX_RECEIVES);
      for (let i = 1; i < receives.length; i += 1)
        expect(receives[i].at - receives[i - 1].at).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
    } finally {
      dlq.destroy();
    }
    expect(rx.received).toHaveLength(0);
    const log = (await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: me.token })).body.data;
    expect(log).toEqual([]);
  });
});
