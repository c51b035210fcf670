// Delivering one job (one event to one webhook): check the destination on its resolved address,
// sign (Standard Webhooks), POST with a deadline, log the attempt, and on failure put the job back
// on the queue with the next delay of the schedule (exponential, ±20 % jitter) until the schedule
// is over; then the dead-letter queue. Nothing here waits for another webhook: each job is its own
// message, retried by its own delayed message. Decisions: docs/webhooks.md.
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type { Clock } from '../../../domain/clock.ts';
import type { Ids } from '../../../domain/ids.ts';
import { type DeliveryRecord, deliveryIdOf, type WebhookRecord } from '../webhooks.ts';
import type { DeliveryJob } from './router.ts';

/** SQS's longest DelaySeconds: longer waits hop through the queue in steps of this. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export type Destination = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

export type PostOutcome =
  | { status: number }
  | { error: 'timeout' | 'connection' | 'tls' | 'protocol'; message: string };

export interface PostRequest {
  url: string;
  /** The checked address to connect to (never resolved again: DNS rebinding). */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type Outcome = 'success' | 'retry' | 'failed' | 'suppressed' | 'skipped' | 'dropped';

export interface DeliveryPorts {
  hook(owner: NoteOwnerKey, hookId: string): Promise<WebhookRecord | undefined>;
  openSecret(sealed: string): Promise<string>;
  checkDestination(url: string): Promise<Destination>;
  /** The `webhook-signature` header of the body (Standard Webhooks). */
  sign(secret: string, eventId: string, at: Date, body: string): string;
  post(request: PostRequest): Promise<PostOutcome>;
  record(d: DeliveryRecord, expiresAt: number): Promise<void>;
  setPolicy(owner: NoteOwnerKey, hookId: string, suppressed: boolean): Promise<void>;
  requeue(job: DeliveryJob, delaySeconds: number): Promise<void>;
  deadLetter(job: DeliveryJob, reason: string): Promise<void>;
  metric(outcome: Outcome, latencyMs?: number): void;
  clock: Clock;
  ids: Ids;
  /** A number in [0, 1) (the jitter). */
  random(): number;
  settings: {
    /** Delays (s) before retry 1, 2, ...; the schedule ends with the last. */
    retryDelays(): number[];
    attemptTimeoutMs(): number;
    retentionDays(): number;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const errorText = (s: string) => s.slice(0, 500);

/** The delay before retry `n` (1-based), with ±20 % jitter; undefined once the schedule is over. */
export function retryDelaySeconds(n: number, delays: number[], random: number): number | undefined {
  const base = delays[n - 1];
  if (base === undefined) return undefined;
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random)));
}

/**
 * The queue delay that brings a job due at `dueAt` back, asked at `now`: none when it is due
 * already; else whole seconds (as SQS takes them, at most its 15 minutes) rounded up, so a job never
 * comes back early and at most a second late.
 */
export function queueDelaySeconds(dueAt: number, now: number): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt - now) / 1000)));
}

export async function deliver(job: DeliveryJob, p: DeliveryPorts): Promise<Outcome> {
  const now = p.clock.now();
  if (job.dueAt !== undefined && job.dueAt - now > 1000) {
    // Not due yet: another hop through the queue (SQS delays are at most 15 minutes).
    await p.requeue(job, queueDelaySeconds(job.dueAt, now));
    return 'retry';
  }
  const hook = await p.hook(job.owner, job.hookId);
  if (!hook) {
    p.metric('dropped');
    return 'dropped'; // the webhook was deleted meanwhile
  }
  const base = {
    id: deliveryIdOf(now, p.ids.bytes(9)),
    hookId: hook.id,
    eventId: job.eventId,
    eventType: job.eventType,
    attemptKind: job.attemptKind,
    attempt: job.attempt,
    createdAt: now,
  };
  const expiresAt = now + p.settings.retentionDays() * DAY_MS;
  const log = (d: Omit<DeliveryRecord, keyof typeof base>) => p.record({ ...base, ...d }, expiresAt);

  if (!hook.active && job.attemptKind === 'event') {
    await log({
      status: 'skipped',
      statusCategory: 'not_delivered',
      httpStatus: null,
      latencyMs: null,
      errorCategory: 'webhook_disabled',
      errorMessage: 'The webhook is not active',
      deliveredAt: null,
    });
    p.metric('skipped');
    return 'skipped';
  }

  const destination = await p.checkDestination(hook.url);
  if (!destination.ok) {
    if (hook.deliveryPolicyStatus !== 'suppressed') await p.setPolicy(hook.owner, hook.id, true);
    await log({
      status: 'skipped',
      statusCategory: 'not_delivered',
      httpStatus: null,
      latencyMs: null,
      errorCategory: 'unsafe_destination',
      errorMessage: errorText(destination.reason),
      deliveredAt: null,
    });
    p.metric('suppressed');
    return 'suppressed';
  }
  if (hook.deliveryPolicyStatus === 'suppressed') await p.setPolicy(hook.owner, hook.id, false);

  const secret = await p.openSecret(hook.sealedSecret);
  const at = new Date(now);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'tri-api-webhooks/1',
    'webhook-id': job.eventId,
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': p.sign(secret, job.eventId, at, job.body),
  };
  const started = p.clock.now();
  const result = await p.post({
    url: hook.url,
    address: destination.address,
    family: destination.family,
    headers,
    body: job.body,
    timeoutMs: p.settings.attemptTimeoutMs(),
  });
  const ended = p.clock.now();
  const latencyMs = ended - started;
  if ('status' in result && result.status >= 200 && result.status < 300) {
    await log({
      status: 'success',
      statusCategory: 'delivered',
      httpStatus: result.status,
      latencyMs,
      errorCategory: null,
      errorMessage: null,
      deliveredAt: ended,
    });
    p.metric('success', latencyMs);
    return 'success';
  }
  // Pings are tried once: their result is read from the log.
  const delay =
    job.attemptKind === 'ping'
      ? undefined
      : retryDelaySeconds(job.attempt, p.settings.retryDelays(), p.random());
  const failure =
    'status' in result
      ? {
          httpStatus: result.status,
          errorCategory: result.status >= 300 && result.status < 400 ? 'redirect' : 'http_status',
          errorMessage:
            result.status >= 300 && result.status < 400
              ? `The receiver answered ${result.status}; redirects are not followed`
              : `The receiver answered ${result.status}`,
        }
      : { httpStatus: null, errorCategory: result.error, errorMessage: errorText(result.message) };
  await log({
    status: 'failed',
    statusCategory: delay === undefined ? 'not_delivered' : 'delivery_issue',
    latencyMs,
    deliveredAt: null,
    ...failure,
  });
  if (delay === undefined) {
    if (job.attemptKind === 'event') await p.deadLetter(job, failure.errorMessage);
    p.metric('failed', latencyMs);
    return 'failed';
  }
  // The schedule counts from the attempt's start: the time the attempt took (up to its deadline)
  // is part of the delay, not added to it.
  const dueAt = now + delay * 1000;
  await p.requeue({ ...job, attempt: job.attempt + 1, dueAt }, queueDelaySeconds(dueAt, ended));
  p.metric('retry', latencyMs);
  return 'retry';
}

/** A batch of queue messages: each delivered on its own, all at once; the ids of those that threw. */
export async function deliverBatch(
  messages: { id: string; body: string }[],
  one: (job: DeliveryJob) => Promise<Outcome>,
): Promise<{ itemIdentifier: string }[]> {
  const results = await Promise.allSettled(messages.map(async (m) => one(JSON.parse(m.body) as DeliveryJob)));
  const failed: { itemIdentifier: string }[] = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected') {
      console.error(
        JSON.stringify({ message: 'delivery failed; the queue retries it', error: String(r.reason) }),
      );
      failed.push({ itemIdentifier: messages[i].id });
    }
  });
  return failed;
}
