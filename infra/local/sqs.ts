// The local stand-in for Amazon SQS: the queues of template.yaml (AWS::SQS::Queue), with SQS's
// behaviour where the product relies on it — per-message DelaySeconds, a visibility timeout after
// each receive (a message not deleted in time is offered again), ApproximateReceiveCount, and the
// redrive policy (a message received more than maxReceiveCount times moves to its dead-letter
// queue). Served on a free loopback port in SQS's JSON protocol (AWS JSON 1.0: SendMessage,
// SendMessageBatch, ReceiveMessage, DeleteMessage, ChangeMessageVisibility, GetQueueAttributes,
// PurgeQueue), so the functions use the real SDK client through AWS_ENDPOINT_URL_SQS; the runner's
// event source mapping (queue-poller.ts) uses the same queues in-process. In memory: queues
// start empty with each runner.
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Template } from './template.ts';

const ACCOUNT = '000000000000';

export interface QueueMessage {
  messageId: string;
  body: string;
  md5: string;
  sentAt: number;
  /** Not visible before this (delay, or a receive's visibility timeout). */
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  receiptHandle?: string;
}

export interface QueueSettings {
  visibilityTimeoutSeconds: number;
  redrive?: { deadLetterQueue: string; maxReceiveCount: number };
}

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

export class LocalQueue {
  readonly messages: QueueMessage[] = [];
  constructor(
    readonly name: string,
    readonly settings: QueueSettings,
    private readonly queues: LocalQueues,
  ) {}

  send(body: string, delaySeconds = 0, now = Date.now()): QueueMessage {
    const m: QueueMessage = {
      messageId: randomUUID(),
      body,
      md5: md5(body),
      sentAt: now,
      visibleAt: now + delaySeconds * 1000,
      receiveCount: 0,
    };
    this.messages.push(m);
    this.queues.notify();
    return m;
  }

  /** Up to `max` visible messages, hidden for the visibility timeout; over-received ones are redriven. */
  receive(max: number, visibilityTimeoutSeconds = this.settings.visibilityTimeoutSeconds, now = Date.now()) {
    const out: QueueMessage[] = [];
    for (const m of [...this.messages]) {
      if (out.length >= max) break;
      if (m.visibleAt > now) continue;
      const redrive = this.settings.redrive;
      if (redrive && m.receiveCount >= redrive.maxReceiveCount) {
        this.remove(m);
        const dlq = this.queues.get(redrive.deadLetterQueue);
        dlq?.messages.push({ ...m, visibleAt: now, receiptHandle: undefined });
        continue;
      }
      m.receiveCount += 1;
      m.firstReceivedAt ??= now;
      m.visibleAt = now + visibilityTimeoutSeconds * 1000;
      m.receiptHandle = `${m.messageId}#${randomUUID()}`;
      out.push(m);
    }
    return out;
  }

  delete(receiptHandle: string): boolean {
    const m = this.messages.find((x) => x.receiptHandle === receiptHandle);
    if (m) this.remove(m);
    return !!m;
  }

  changeVisibility(receiptHandle: string, seconds: number, now = Date.now()): boolean {
    const m = this.messages.find((x) => x.receiptHandle === receiptHandle);
    if (m) {
      m.visibleAt = now + seconds * 1000;
      this.queues.notify();
    }
    return !!m;
  }

  counts(now = Date.now()) {
    const visible = this.messages.filter((m) => m.visibleAt <= now);
    return {
      ApproximateNumberOfMessages: visible.length,
      ApproximateNumberOfMessagesNotVisible: this.messages.filter(
        (m) => m.visibleAt > now && m.receiveCount > 0,
      ).length,
      ApproximateNumberOfMessagesDelayed: this.messages.filter(
        (m) => m.visibleAt > now && m.receiveCount === 0,
      ).length,
    };
  }

  private remove(m: QueueMessage): void {
    const i = this.messages.indexOf(m);
    if (i >= 0) this.messages.splice(i, 1);
  }
}

export class LocalQueues {
  private readonly byName = new Map<string, LocalQueue>();
  private waiters: Array<() => void> = [];
  endpoint = '';

  define(name: string, settings: QueueSettings): LocalQueue {
    const q = new LocalQueue(name, settings, this);
    this.byName.set(name, q);
    return q;
  }
  get(name: string): LocalQueue | undefined {
    return this.byName.get(name);
  }
  names(): string[] {
    return [...this.byName.keys()];
  }
  urlOf(name: string): string {
    return `${this.endpoint}/${ACCOUNT}/${name}`;
  }
  arnOf(name: string): string {
    return `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`;
  }
  fromUrl(url: unknown): LocalQueue | undefined {
    return typeof url === 'string' ? this.byName.get(url.split('/').pop() ?? '') : undefined;
  }
  /** Wakes pollers waiting for a message (sends, visibility changes). */
  notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }
  /** Resolves at the next send, or after `ms`. */
  waitForMessage(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

/** The queues of the template, keyed by logical id (their local name), with their settings. */
export function queuesOf(template: Template, opts: { visibilityTimeoutSeconds?: number } = {}): LocalQueues {
  const queues = new LocalQueues();
  for (const [id, res] of Object.entries(template.Resources)) {
    if (res.Type !== 'AWS::SQS::Queue') continue;
    const p = res.Properties ?? {};
    const target = p.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0] as string | undefined;
    queues.define(id, {
      visibilityTimeoutSeconds: opts.visibilityTimeoutSeconds ?? Number(p.VisibilityTimeout ?? 30),
      redrive: target
        ? { deadLetterQueue: target, maxReceiveCount: Number(p.RedrivePolicy.maxReceiveCount) }
        : undefined,
    });
  }
  return queues;
}

type Reply = { status: number; body: unknown };
const fault = (type: string, message: string, status = 400): Reply => ({
  status,
  body: { __type: `com.amazonaws.sqs#${type}`, message },
});

function answer(queues: LocalQueues, operation: string, input: Record<string, any>): Reply {
  const q = queues.fromUrl(input.QueueUrl);
  if (!q) return fault('QueueDoesNotExist', 'The specified queue does not exist.');
  const delayOf = (d: unknown) => Math.min(900, Math.max(0, Number(d ?? 0)));
  switch (operation) {
    case 'SendMessage': {
      if (typeof input.MessageBody !== 'string' || input.MessageBody === '')
        return fault('InvalidParameterValue', 'MessageBody is required');
      const m = q.send(input.MessageBody, delayOf(input.DelaySeconds));
      return { status: 200, body: { MessageId: m.messageId, MD5OfMessageBody: m.md5 } };
    }
    case 'SendMessageBatch': {
      const entries = (input.Entries ?? []) as { Id: string; MessageBody: string; DelaySeconds?: number }[];
      if (entries.length === 0 || entries.length > 10)
        return fault('AWS.SimpleQueueService.TooManyEntriesInBatchRequest', 'A batch holds 1 to 10 entries');
      return {
        status: 200,
        body: {
          Successful: entries.map((e) => {
            const m = q.send(e.MessageBody, delayOf(e.DelaySeconds));
            return { Id: e.Id, MessageId: m.messageId, MD5OfMessageBody: m.md5 };
          }),
          Failed: [],
        },
      };
    }
    case 'ReceiveMessage': {
      const got = q.receive(
        Math.min(10, Number(input.MaxNumberOfMessages ?? 1)),
        input.VisibilityTimeout === undefined ? undefined : Number(input.VisibilityTimeout),
      );
      return {
        status: 200,
        body: {
          Messages: got.map((m) => ({
            MessageId: m.messageId,
            ReceiptHandle: m.receiptHandle,
            MD5OfBody: m.md5,
            Body: m.body,
            Attributes: {
              ApproximateReceiveCount: String(m.receiveCount),
              SentTimestamp: String(m.sentAt),
              ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt),
            },
          })),
        },
      };
    }
    case 'DeleteMessage':
      if (!q.delete(String(input.ReceiptHandle)))
        return fault('ReceiptHandleIsInvalid', 'The receipt handle is not valid');
      return { status: 200, body: {} };
    case 'ChangeMessageVisibility':
      if (!q.changeVisibility(String(input.ReceiptHandle), Number(input.VisibilityTimeout ?? 0)))
        return fault('ReceiptHandleIsInvalid', 'The receipt handle is not valid');
      return { status: 200, body: {} };
    case 'GetQueueAttributes':
      return {
        status: 200,
        body: {
          Attributes: {
            ...Object.fromEntries(Object.entries(q.counts()).map(([k, v]) => [k, String(v)])),
            VisibilityTimeout: String(q.settings.visibilityTimeoutSeconds),
            QueueArn: queues.arnOf(q.name),
          },
        },
      };
    case 'PurgeQueue':
      q.messages.splice(0);
      return { status: 200, body: {} };
    default:
      return fault('UnsupportedOperation', `${operation} is not emulated`);
  }
}

export interface LocalSqs {
  endpoint: string;
  queues: LocalQueues;
  /** AWS_ENDPOINT_URL_SQS and the function variables that name a queue (their !Ref). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the stand-in for the template's queues. */
export async function startLocalSqs(
  template: Template,
  opts: { visibilityTimeoutSeconds?: number } = {},
): Promise<LocalSqs> {
  const queues = queuesOf(template, opts);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      let reply: Reply;
      try {
        reply = target.startsWith('AmazonSQS.')
          ? answer(
              queues,
              target.slice('AmazonSQS.'.length),
              JSON.parse(Buffer.concat(chunks).toString() || '{}'),
            )
          : fault('UnsupportedOperation', 'Only the JSON protocol (X-Amz-Target: AmazonSQS.*) is emulated');
      } catch {
        reply = fault('InvalidParameterValue', 'The request body is not JSON');
      }
      const type = (reply.body as { __type?: string }).__type;
      res
        .writeHead(reply.status, {
          'Content-Type': 'application/x-amz-json-1.0',
          ...(type ? { 'x-amzn-query-error': `${type.split('#')[1]};Sender` } : {}),
        })
        .end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  queues.endpoint = endpoint;
  const env: Record<string, string> = { AWS_ENDPOINT_URL_SQS: endpoint };
  for (const res of Object.values(template.Resources)) {
    if (res.Type !== 'AWS::Serverless::Function') continue;
    for (const [name, value] of Object.entries<any>(res.Properties?.Environment?.Variables ?? {}))
      if (value?.Ref && queues.get(value.Ref)) env[name] = queues.urlOf(value.Ref);
  }
  return {
    endpoint,
    queues,
    env,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
