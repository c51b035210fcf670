// The local stand-in for Amazon SQS: the queues of template.yaml (AWS::SQS::Queue), with SQS's
// behaviour where the product relies on it — per-message DelaySeconds, a visibility timeout after
// each receive (a message not deleted in time is offered again), ApproximateReceiveCount, and the
// redrive policy (a message received more than maxReceiveCount times moves to its dead-letter
// queue). Served on a free loopback port in SQS's JSON protocol (AWS JSON 1.0: SendMessage,
// SendMessageBatch, ReceiveMessage, DeleteMessage, ChangeMessageVisibility, GetQueueAttributes,
// PurgeQueue), so the functions use the real SDK client through AWS_ENDPOINT_URL_SQS; the runner's
// event source mapping (queue-poller.ts) uses the same queues in-process. It refuses what SQS
// refuses, with SQS's errors: a message over SQS's size limit, a batch over its total limit or of
// more than 10 entries, characters SQS does not accept. With a data folder (npm start:
// LOCAL_DATA_DIR) the messages are kept in it, as SQS keeps them: pending retries survive a restart
// (times are absolute, so a delay or a visibility timeout ends when it would have). Without one
// (tests), the queues live in memory and start empty.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Template } from './template.ts';

const ACCOUNT = '000000000000';

/** SQS's limit on a message, and on the sum of a SendMessageBatch's messages (1 MiB since 2025). */
export const MAX_MESSAGE_BYTES = 1_048_576;
/** The characters SQS accepts in a message body (XML 1.0's): anything else is InvalidMessageContents. */
const REFUSED_CHARACTER = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
/** How soon after a change the queues are written to the data folder. */
const SAVE_DELAY_MS = 200;

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
    this.queues.changed();
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
        this.queues.changed();
        continue;
      }
      m.receiveCount += 1;
      m.firstReceivedAt ??= now;
      m.visibleAt = now + visibilityTimeoutSeconds * 1000;
      m.receiptHandle = `${m.messageId}#${randomUUID()}`;
      out.push(m);
    }
    if (out.length) this.queues.changed();
    return out;
  }

  /** Undoes the receive of a message the event source mapping did not pass on (visible again, as before). */
  release(m: QueueMessage): void {
    m.receiveCount -= 1;
    if (m.receiveCount === 0) m.firstReceivedAt = undefined;
    m.visibleAt = Date.now();
    m.receiptHandle = undefined;
    this.queues.changed();
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
      this.queues.changed();
      this.queues.notify();
    }
    return !!m;
  }

  purge(): void {
    this.messages.splice(0);
    this.queues.changed();
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
    this.queues.changed();
  }
}

export class LocalQueues {
  private readonly byName = new Map<string, LocalQueue>();
  private waiters: Array<() => void> = [];
  private saveTimer?: NodeJS.Timeout;
  endpoint = '';

  /** `file`: where the messages are kept (loaded now, written after each change); none: in memory. */
  constructor(private readonly file?: string) {}

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
  /** Reads the messages kept in the file, for the queues defined (a queue no longer defined is dropped). */
  load(): void {
    if (!this.file || !existsSync(this.file)) return;
    const kept = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, QueueMessage[]>;
    for (const [name, messages] of Object.entries(kept)) {
      // A receipt handle is valid only for the receive that gave it.
      this.byName.get(name)?.messages.push(...messages.map((m) => ({ ...m, receiptHandle: undefined })));
    }
  }
  /** A queue changed: written to the file shortly (several changes, one write). */
  changed(): void {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }
  /** Writes every queue's messages to the file now (whole, by renaming a complete temporary file). */
  save(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.file) return;
    const kept = Object.fromEntries([...this.byName].map(([name, q]) => [name, q.messages]));
    try {
      writeFileSync(`${this.file}.tmp`, JSON.stringify(kept));
      renameSync(`${this.file}.tmp`, this.file);
    } catch (err) {
      // The data folder removed under a running stack: nothing to keep the messages in.
      console.error(`[sqs] messages not kept in ${this.file}: ${(err as Error).message}`);
    }
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

export interface LocalSqsOptions {
  /** Overrides every queue's visibility timeout (tests). */
  visibilityTimeoutSeconds?: number;
  /** Keeps the messages in this folder (sqs.json) across restarts; none: in memory. */
  dataDir?: string;
}

/** The queues of the template, keyed by logical id (their local name), with their settings and,
 * with a data folder, the messages kept there. */
export function queuesOf(template: Template, opts: LocalSqsOptions = {}): LocalQueues {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const queues = new LocalQueues(opts.dataDir ? join(opts.dataDir, 'sqs.json') : undefined);
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
  queues.load();
  return queues;
}

type Reply = { status: number; body: unknown; queryError?: string };
/** An SQS error as its JSON protocol sends it: `__type` (the SDK's error name) and, in the
 * x-amzn-query-error header, the code of SQS's query protocol (the error's `Code`). */
const fault = (type: string, message: string, queryCode = type, status = 400): Reply => ({
  status,
  body: { __type: type.includes('#') ? type : `com.amazonaws.sqs#${type}`, message },
  queryError: `${queryCode};Sender`,
});
/** SQS's answer to a parameter it refuses (not a modelled error: the SDK names it by its code). */
const invalidParameter = (reason: string) =>
  fault(
    'com.amazon.coral.service#InvalidParameterValueException',
    `One or more parameters are invalid. Reason: ${reason}`,
    'InvalidParameterValue',
  );

/** Why SQS would refuse this message body, if it would. */
function refusedBody(body: unknown): Reply | undefined {
  if (typeof body !== 'string' || body === '')
    return fault('MissingParameter', 'The request must contain the parameter MessageBody.');
  if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES)
    return invalidParameter(`Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`);
  const bad = REFUSED_CHARACTER.exec(body)?.[0];
  if (bad !== undefined)
    return fault(
      'InvalidMessageContents',
      `Invalid binary character '#x${bad.codePointAt(0)!.toString(16).toUpperCase()}' was found in the message body, ` +
        'the set of allowed characters is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF',
    );
  return undefined;
}

function answer(queues: LocalQueues, operation: string, input: Record<string, any>): Reply {
  const q = queues.fromUrl(input.QueueUrl);
  if (!q) return fault('QueueDoesNotExist', 'The specified queue does not exist.');
  const delayOf = (d: unknown) => Math.min(900, Math.max(0, Number(d ?? 0)));
  switch (operation) {
    case 'SendMessage': {
      const refused = refusedBody(input.MessageBody);
      if (refused) return refused;
      const m = q.send(input.MessageBody, delayOf(input.DelaySeconds));
      return { status: 200, body: { MessageId: m.messageId, MD5OfMessageBody: m.md5 } };
    }
    case 'SendMessageBatch': {
      const entries = (input.Entries ?? []) as { Id: string; MessageBody: string; DelaySeconds?: number }[];
      if (entries.length === 0)
        return fault(
          'EmptyBatchRequest',
          'There should be at least one SendMessageBatchRequestEntry in the request.',
          'AWS.SimpleQueueService.EmptyBatchRequest',
        );
      if (entries.length > 10)
        return fault(
          'TooManyEntriesInBatchRequest',
          `Maximum number of entries per request are 10. You have sent ${entries.length}.`,
          'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
        );
      if (new Set(entries.map((e) => e.Id)).size < entries.length)
        return fault(
          'BatchEntryIdsNotDistinct',
          'Id values must be unique within a batch request.',
          'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
        );
      const total = entries.reduce((n, e) => n + Buffer.byteLength(String(e.MessageBody ?? '')), 0);
      if (total > MAX_MESSAGE_BYTES)
        return fault(
          'BatchRequestTooLong',
          `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes. You have sent ${total} bytes.`,
          'AWS.SimpleQueueService.BatchRequestTooLong',
        );
      // An entry SQS refuses fails alone (in Failed); the others are sent.
      const results = entries.map((e) => ({ e, refused: refusedBody(e.MessageBody) }));
      return {
        status: 200,
        body: {
          Successful: results
            .filter((r) => !r.refused)
            .map(({ e }) => {
              const m = q.send(e.MessageBody, delayOf(e.DelaySeconds));
              return { Id: e.Id, MessageId: m.messageId, MD5OfMessageBody: m.md5 };
            }),
          Failed: results
            .filter((r) => r.refused)
            .map(({ e, refused }) => ({
              Id: e.Id,
              SenderFault: true,
              Code: refused!.queryError!.split(';')[0],
              Message: (refused!.body as { message: string }).message,
            })),
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
      q.purge();
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
export async function startLocalSqs(template: Template, opts: LocalSqsOptions = {}): Promise<LocalSqs> {
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
      res
        .writeHead(reply.status, {
          'Content-Type': 'application/x-amz-json-1.0',
          ...(reply.queryError ? { 'x-amzn-query-error': reply.queryError } : {}),
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
        server.close(() => {
          queues.save();
          resolve();
        });
      }),
  };
}
