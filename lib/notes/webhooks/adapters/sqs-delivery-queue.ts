// The delivery queue on SQS: one message per job (the router's batches of ten), a retry is a new
// message with DelaySeconds (the job carries its attempt and due time), what the schedule gives up on
// goes to the dead-letter queue (whose alarm pages). Plain functions: each bundle keeps what it sends.
import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../../../config.ts';
import { sqsClient } from '../../../data/sqs.ts';
import { delayOf, type LiveWindow } from '../events/live-window.ts';
import type { DeliveryJob } from '../events/router.ts';

const BATCH = 10;

/** A job's queue: the slow lane's, or the delivery queue (lib/notes/webhooks/events/lanes.ts). */
const queueOf = (job: DeliveryJob) =>
  job.lane === 'slow' ? config.webhookSlowQueueUrl : config.webhookQueueUrl;

export async function enqueueJobs(jobs: DeliveryJob[]): Promise<void> {
  for (const lane of [undefined, 'slow'] as const) await enqueueOn(jobs.filter((j) => j.lane === lane));
}

async function enqueueOn(jobs: DeliveryJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await sendBatches(
    queueOf(jobs[0]),
    jobs.map((job) => ({ MessageBody: JSON.stringify(job) })),
    'delivery jobs',
  );
}

/** Messages to one queue, ten to a SendMessageBatch; any entry SQS refuses fails the call. */
async function sendBatches(
  queueUrl: string,
  messages: { MessageBody: string; DelaySeconds?: number }[],
  what: string,
): Promise<void> {
  for (let i = 0; i < messages.length; i += BATCH) {
    const out = await sqsClient().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.slice(i, i + BATCH).map((m, n) => ({ Id: String(n), ...m })),
      }),
    );
    if (out.Failed?.length)
      throw new Error(
        `SQS refused ${out.Failed.length} ${what}: ${out.Failed[0].Code} ${out.Failed[0].Message}`,
      );
  }
}

export async function requeueJob(job: DeliveryJob, delaySeconds: number): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueOf(job),
      MessageBody: JSON.stringify(job),
      DelaySeconds: delaySeconds,
    }),
  );
}

export async function deadLetterJob(job: DeliveryJob, reason: string): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: config.webhookDeadLetterQueueUrl,
      MessageBody: JSON.stringify({ ...job, reason }),
    }),
  );
}

/** Each live window's check, on its own queue, delayed to the window's end (live-window.ts). */
export function sendWindowChecks(windows: LiveWindow[], now = Date.now()): Promise<void> {
  return sendBatches(
    config.webhookLiveWindowQueueUrl,
    windows.map((w) => ({ MessageBody: JSON.stringify(w), DelaySeconds: delayOf(w, now) })),
    'live window checks',
  );
}
