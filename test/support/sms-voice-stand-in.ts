// A stand-in of AWS End User Messaging SMS and Voice v2 on loopback, for tests: the real
// @aws-sdk/client-pinpoint-sms-voice-v2 client talks to it (AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2)
// over the service's JSON 1.0 protocol (POST /, X-Amz-Target: PinpointSMSVoiceV2.<Operation>). It
// answers SendTextMessage and SendVoiceMessage with a MessageId, refuses what the service refuses
// (no destination, no body, TimeToLive outside 5..259200 s), and records every request.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  operation: 'SendTextMessage' | 'SendVoiceMessage';
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export interface SmsVoiceStandIn {
  url: string;
  sent: SentMessage[];
  close(): Promise<void>;
}

const TARGET = /^PinpointSMSVoiceV2\.(SendTextMessage|SendVoiceMessage)$/;

export async function startSmsVoiceStandIn(): Promise<SmsVoiceStandIn> {
  const sent: SentMessage[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown, type?: string) => {
        res.writeHead(status, {
          'Content-Type': 'application/x-amz-json-1.0',
          'x-amzn-RequestId': randomUUID(),
          ...(type ? { 'x-amzn-ErrorType': type } : {}),
        });
        res.end(JSON.stringify(body));
      };
      const target = TARGET.exec(String(req.headers['x-amz-target'] ?? ''));
      if (req.method !== 'POST' || !target)
        return reply(
          400,
          { __type: 'UnknownOperationException', message: 'unknown operation' },
          'UnknownOperationException',
        );
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(
          400,
          { __type: 'SerializationException', message: 'bad JSON' },
          'SerializationException',
        );
      }
      const ttl = body.TimeToLive as number | undefined;
      if (
        typeof body.DestinationPhoneNumber !== 'string' ||
        typeof body.MessageBody !== 'string' ||
        (ttl !== undefined && (ttl < 5 || ttl > 259_200))
      )
        return reply(
          400,
          { __type: 'ValidationException', message: 'invalid request' },
          'ValidationException',
        );
      sent.push({ operation: target[1] as SentMessage['operation'], body, headers: req.headers });
      reply(200, { MessageId: randomUUID() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
