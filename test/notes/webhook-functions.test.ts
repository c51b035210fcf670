// Event-payload tests of the two pipeline functions, called with the events Lambda gives them
// (a DynamoDB stream batch, an SQS batch), against DynamoDB Local and the runner's SQS stand-in.
import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { handler as deliverWebhooks } from '../../functions/notes/deliver-webhooks.ts';
import { handler as routeWebhookEvents } from '../../functions/notes/route-webhook-events.ts';
import { notesKeys } from '../../lib/data/keys.ts';
import { newUser } from '../support/identity.ts';
import { noteRecord } from '../support/note-record.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call } from './helpers.ts';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const metaImage = (ownerId: string, userPath: string, shortId: string) =>
  marshall(
    {
      ...notesKeys.noteMeta(shortId),
      type: 'note',
      ...noteRecord({
        id: `${shortId}abcdefghijkl`,
        shortId,
        ownerId,
        userPath,
        title: 'From the stream',
        createdAt: 1767225600000,
        lastChangedAt: 1767225600000,
      }),
    },
    { removeUndefinedValues: true },
  );

/** A receiver of its own, and a workspace webhook of `me` that delivers to it. */
async function hookedReceiver(me: { token: string }) {
  const rx = await startReceiver();
  receivers.push(rx);
  const hook = (
    await call('POST', '/v1/webhooks', {
      token: me.token,
      body: { url: rx.url, scope: { type: 'workspace' } },
    })
  ).body;
  return { rx, hook };
}

const streamEvent = (
  records: { eventID: string; eventName: 'INSERT' | 'MODIFY'; NewImage: Record<string, unknown> }[],
) =>
  ({
    Records: records.map((r) => ({
      eventID: r.eventID,
      eventName: r.eventName,
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/tri-api-local/stream/x',
      dynamodb: {
        ApproximateCreationDateTime: 1767225600,
        Keys: { PK: r.NewImage.PK, SK: r.NewImage.SK },
        NewImage: r.NewImage,
        SequenceNumber: '1',
        SizeBytes: 100,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    })),
  }) as unknown as DynamoDBStreamEvent;

describe('NotesRouteWebhookEventsFunction (DynamoDB stream event)', () => {
  it('turns a note META insert of a workspace with a webhook into one delivery; other items into none', async () => {
    const me = await newUser('Stream Payload');
    const { rx, hook } = await hookedReceiver(me);
    const shortId = randomUUID().replace(/-/g, '').slice(0, 10);
    const eventID = `test-${randomUUID()}`;
    await routeWebhookEvents(
      streamEvent([
        { eventID, eventName: 'INSERT', NewImage: metaImage(me.id, me.userPath, shortId) },
        {
          eventID: `other-${randomUUID()}`,
          eventName: 'INSERT',
          NewImage: marshall({
            PK: `NOTE#${shortId}`,
            SK: 'NOTE#CONTENT',
            type: 'note-content',
            content: 'x',
          }),
        },
      ]),
    );
    const [got] = await rx.waitFor(1);
    const event = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as Record<
      string,
      any
    >;
    expect(event).toMatchObject({
      id: `msg_${eventID}`,
      type: 'note.created',
      workspace: { type: 'user', path: me.userPath },
      data: { note: { shortId, title: 'From the stream' } },
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.received).toHaveLength(1);
  });
});

describe('NotesDeliverWebhooksFunction (SQS event)', () => {
  it('delivers each job of the batch; a message it cannot handle is reported back to the queue', async () => {
    const me = await newUser('Queue Payload');
    const { rx, hook } = await hookedReceiver(me);
    const body = JSON.stringify({
      id: 'msg_direct',
      type: 'ping',
      createdAt: 1,
      workspace: { type: 'user', path: me.userPath },
      data: {},
    });
    const job = {
      hookId: hook.id,
      owner: { userId: me.id },
      eventId: 'msg_direct',
      eventType: 'ping',
      attemptKind: 'ping',
      body,
      attempt: 1,
    };
    const record = (messageId: string, messageBody: string) => ({
      messageId,
      receiptHandle: `rh-${messageId}`,
      body: messageBody,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '1',
        SenderId: 'x',
        ApproximateFirstReceiveTimestamp: '1',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:WebhookDeliveryQueue',
      awsRegion: 'us-east-1',
    });
    const out = await deliverWebhooks({
      Records: [record('good', JSON.stringify(job)), record('bad', 'not json')],
    } as SQSEvent);
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].body).toBe(body);
    expect(rx.received[0].headers['webhook-id']).toBe('msg_direct');
    new Webhook(hook.secret).verify(rx.received[0].body, rx.received[0].headers as Record<string, string>);
    const log = (await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: me.token })).body.data;
    expect(log).toMatchObject([
      { eventType: 'ping', attemptKind: 'ping', status: 'success', httpStatus: 204 },
    ]);
  });
});
