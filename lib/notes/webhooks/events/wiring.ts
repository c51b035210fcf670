// The event pipeline's wiring (docs/architecture.md, "Webhook events"): the stream function that
// routes table changes to delivery jobs, and the queue function that delivers them. Its own module,
// beside the HTTP operations' (lib/notes/webhooks/wiring.ts), so that no HTTP function bundles the pipeline's adapters
// (the destination policy's address parser, the Standard Webhooks signer, the queue client): their
// packages are CommonJS, which esbuild cannot drop from a bundle that imports them at all.
import type { DynamoDBRecord } from 'aws-lambda';
import { unseal } from '../../../domain/seal.ts';
import { config } from '../../../config.ts';
import { mfaEncryptionKey } from '../../../data/secrets.ts';
import { systemClock } from '../../../domain/clock.ts';
import { systemIds } from '../../../domain/ids.ts';
import { once } from '../../../domain/once.ts';
import { directory } from '../../../identity/wiring.ts';
import { checkDestination } from '../adapters/destination-policy.ts';
import { folderTree } from '../../folders/adapters/dynamo-folders.ts';
import {
  getWebhook,
  listWebhooks,
  recordDelivery,
  setDeliveryPolicy,
  setSlowLane,
} from '../adapters/dynamo-webhooks.ts';
import { emitDeliveryMetric } from '../adapters/emf-metrics.ts';
import { postDelivery } from '../adapters/http-poster.ts';
import { deadLetterJob, enqueueJobs, requeueJob, sendWindowChecks } from '../adapters/sqs-delivery-queue.ts';
import { signDelivery } from '../adapters/standard-webhooks-signer.ts';
import { changesOf, noteStateOf } from '../adapters/stream-changes.ts';
import { carriedWindow, carryWindow, dropCarriedWindow } from '../adapters/dynamo-live-windows.ts';
import { toComment } from '../../revisions/adapters/dynamo-comments.ts';
import { toVersion } from '../../revisions/adapters/dynamo-versions.ts';
import { type DeliveryPorts, deliver, deliverBatch } from './delivery.ts';
import { withLanes } from './lanes.ts';
import type { LiveWindow } from './live-window.ts';
import { closeWindows, type RouterPorts, routeChanges } from './router.ts';

/** The webhook event router (stream function): table changes to delivery jobs on the queue. */
// Eventually consistent reads of the hooks and folders (half the read units): the router's view is a
// snapshot anyway (a hook created around the change may or may not get it, whichever read it does),
// and the delivery reads each hook strongly consistent before sending, so a hook deleted, disabled
// or given a new URL or secret a moment ago never gets a delivery under its old settings.
export const webhookEvents = /* @__PURE__ */ once(() => {
  const ports = routerPorts();
  return {
    route: (records: DynamoDBRecord[]) => routeChanges(changesOf(records, { toVersion, toComment }), ports),
  };
});

function routerPorts(): RouterPorts {
  const eventual = { consistent: false };
  return {
    hooksOf: (owner) => listWebhooks(owner, eventual),
    foldersOf: async (owner) => (await folderTree(owner, undefined, eventual)).folders,
    userPathOf: async (userId) => (await directory().getUserWithTeams(userId))?.user.userPath ?? userId,
    noteOf: noteStateOf,
    enqueue: enqueueJobs,
    openWindows: (windows) => sendWindowChecks(windows, systemClock.now()),
  };
}

/** Live windows' checks (queue function): each closed with one note.updated (live-window.ts). */
export const liveWindows = /* @__PURE__ */ once(() => {
  const ports = {
    ...routerPorts(),
    currentNote: (shortId: string) => noteStateOf(shortId, { consistent: true }),
    carried: carriedWindow,
    carry: carryWindow,
    dropCarried: dropCarriedWindow,
  };
  return { close: (windows: LiveWindow[]) => closeWindows(windows, ports) };
});

/** Webhook delivery (queue function): each job signed, sent, logged, retried or dead-lettered. */
export const webhookDelivery = /* @__PURE__ */ once(() => {
  const ports: DeliveryPorts = {
    hook: getWebhook,
    openSecret: async (sealed) => unseal(sealed, await mfaEncryptionKey()),
    checkDestination: (url) => checkDestination(url, config.webhookAllowedDestinations),
    sign: signDelivery,
    post: postDelivery,
    record: recordDelivery,
    setPolicy: setDeliveryPolicy,
    requeue: requeueJob,
    deadLetter: deadLetterJob,
    metric: emitDeliveryMetric,
    clock: systemClock,
    ids: systemIds,
    random: Math.random,
    settings: {
      retryDelays: () => config.webhookRetryDelays,
      attemptTimeoutMs: () => config.webhookAttemptTimeoutMs,
      retentionDays: () => config.webhookRetentionDays,
    },
  };
  // Each job through its lane (lanes.ts): a hanging receiver's jobs take the slow lane.
  const one = (job: Parameters<typeof deliver>[0]) => deliver(job, withLanes(job, ports, setSlowLane));
  return { deliverBatch: (messages: { id: string; body: string }[]) => deliverBatch(messages, one) };
});
