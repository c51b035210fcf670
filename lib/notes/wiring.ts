// The one place the Notes adapters are chosen and handed to its domain; built on first use.
// Only UploadNoteImage reaches the S3 image store and image detection (and bundles the S3
// client and the image signatures); only the trash purge also reaches S3, to delete images. A
// function bundles what its getter reaches, and no more (cold start).
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { systemIds } from '../domain/ids.ts';
import { IdempotencyKeys } from '../domain/idempotency.ts';
import { once } from '../domain/once.ts';
import { directory } from '../identity/wiring.ts';
import type { Bin, ContentHistory, ImageStore, ImageTypes } from './ports.ts';
import { Unauthenticated } from '../domain/errors.ts';
import { dynamoCommentStore } from './adapters/dynamo-comments.ts';
import { dynamoVersionStore } from './adapters/dynamo-versions.ts';
import { CommentService } from './comments.ts';
import { type NoteOpener, type UserLookup, VersionService } from './versions.ts';
import { DynamoNotesStore } from './adapters/dynamo-notes.ts';
import { S3ImageStore } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';
import { DynamoFolderStore } from './adapters/dynamo-folders.ts';
import { DynamoTrashStore } from './adapters/dynamo-trash.ts';
import { FolderService } from './folders.ts';
import { NotesService } from './service.ts';
import { TrashService } from './trash.ts';
import { dynamoWebhooks } from './adapters/dynamo-webhooks.ts';
import { dynamoHookMarks } from './adapters/dynamo-hook-marks.ts';
import { WebhookService, type WebhookMarks } from './webhooks.ts';
import { decryptSecret, encryptSecret } from '../bank/crypto.ts';
import { deliver, deliverBatch } from './events/delivery.ts';
import { routeChanges } from './events/router.ts';
import { checkDestination } from './adapters/destination-policy.ts';
import { getWebhook, listWebhooks, recordDelivery, setDeliveryPolicy } from './adapters/dynamo-webhooks.ts';
import { emitDeliveryMetric } from './adapters/emf-metrics.ts';
import { postDelivery } from './adapters/http-poster.ts';
import { deadLetterJob, enqueueJobs, requeueJob } from './adapters/sqs-delivery-queue.ts';
import { signDelivery } from './adapters/standard-webhooks-signer.ts';
import { changesOf, noteStateOf } from './adapters/stream-changes.ts';
import type { DynamoDBRecord } from 'aws-lambda';
import { mfaEncryptionKey } from '../data/secrets.ts';

const build = (images: ImageStore, imageTypes: ImageTypes, bin: Bin, history?: ContentHistory) =>
  new NotesService({
    store: new DynamoNotesStore(),
    images,
    imageTypes,
    directory: directory(),
    clock: systemClock,
    ids: systemIds,
    imageUrl: (key) => `${config.imageBaseUrl}/${key}`,
    bin,
    history,
  });

/** No image store nor detection: for operations that never touch images. */
const noImages: ImageStore = {
  put: () => Promise.reject(new Error('this function has no image store')),
  deleteAll: () => Promise.reject(new Error('this function has no image store')),
};
const noImageTypes: ImageTypes = {
  detect: () => Promise.reject(new Error('this function has no image detection')),
};

const noBin: Bin = {
  moveToTrash: () => Promise.reject(new Error('this function has no trash store')),
};

export const notes = /* @__PURE__ */ once(() => build(noImages, noImageTypes, noBin));

/** The same service with the S3 image store and image detection (UploadNoteImage). */
export const notesWithImages = /* @__PURE__ */ once(() => build(new S3ImageStore(), signatureImages, noBin));

/** The same service with the trash, where deleted notes go (DeleteNote, DeleteTeamNote). */
export const notesWithBin = /* @__PURE__ */ once(() =>
  build(noImages, noImageTypes, {
    moveToTrash: (stored, userId) => trash().moveToTrash(stored, userId),
  }),
);

const openNote: NoteOpener = (userId, ref) => notes().openNote(userId, ref);
const userOf: UserLookup = async (userId) => {
  const me = await directory().getUserWithTeams(userId);
  if (!me) throw new Unauthenticated('The token belongs to a user that no longer exists');
  return me.user;
};

/** Note versions (HackMD Versions); also told of every content change by notesWithHistory(). */
export const versions = /* @__PURE__ */ once(
  () => new VersionService(dynamoVersionStore(), openNote, userOf, systemClock, systemIds),
);

/** The service with system versions kept on content changes (UpdateNote, UpdateTeamNote). */
export const notesWithHistory = /* @__PURE__ */ once(() => build(noImages, noImageTypes, noBin, versions()));

/** Note comments (HackMD Comments and our comment-writing extension). */
export const comments = /* @__PURE__ */ once(
  () => new CommentService(dynamoCommentStore(), openNote, userOf, systemClock, systemIds),
);

export const folders = /* @__PURE__ */ once(
  () => new FolderService(new DynamoFolderStore(), directory(), systemClock, systemIds),
);

const trashService = (images: ImageStore) =>
  new TrashService(new DynamoTrashStore(), images, directory(), () => config.trashRetentionDays, systemClock);

/**
 * The trash as its routes and DeleteNote see it: listing, restoring and moving a note there never
 * touch images (no S3 in those bundles).
 */
export const trash = /* @__PURE__ */ once(() => trashService(noImages));

/** The trash purge (stream function, admin CLI): deletes a purged note's images from S3. */
export const trashPurge = /* @__PURE__ */ once(() => trashService(new S3ImageStore()));

export { expiredNotesOf } from './adapters/dynamo-trash.ts';

/** Idempotency-Keys of Notes creates (lib/domain/idempotency.ts), kept in the table. */
export const notesIdempotency = /* @__PURE__ */ once(
  () => new IdempotencyKeys(new DynamoNotesStore(), systemClock),
);

/**
 * Webhooks (lib/notes/webhooks.ts); folder scopes are checked against the workspace's folders. Only
 * a create seals a signing secret (with the key that seals the MFA secrets, AES-256-GCM), so only
 * the create functions read that key (and bundle Secrets Manager).
 */
const webhookService = (seal: (secret: string) => Promise<string>, marks?: WebhookMarks) => {
  const folderStore = new DynamoFolderStore();
  return new WebhookService({
    store: dynamoWebhooks,
    directory: directory(),
    marks,
    folderExists: async (owner, folderId) => (await folderStore.get(owner, folderId)) !== undefined,
    seal,
    clock: systemClock,
    ids: systemIds,
    settings: {
      maxPerWorkspace: () => config.webhookLimit,
      allowHttp: () => config.webhookAllowHttp,
    },
  });
};

export const webhooks = /* @__PURE__ */ once(() =>
  webhookService(() => Promise.reject(new Error('this function seals no webhook secret'))),
);

/** The same service able to seal a new webhook's secret (CreateWebhook, CreateTeamWebhook). */
export const webhookCreator = /* @__PURE__ */ once(() =>
  webhookService(async (secret) => encryptSecret(secret, await mfaEncryptionKey()), dynamoHookMarks),
);

/**
 * The service that deletes webhooks (DeleteWebhook, DeleteTeamWebhook): the last one of a workspace
 * removes its webhook marks. Only the create and delete functions bundle the marks.
 */
export const webhookRemover = /* @__PURE__ */ once(() =>
  webhookService(() => Promise.reject(new Error('this function seals no webhook secret')), dynamoHookMarks),
);

/** The webhook event router (stream function): table changes to delivery jobs on the queue. */
export const webhookEvents = /* @__PURE__ */ once(() => {
  const folderStore = new DynamoFolderStore();
  return {
    route: (records: DynamoDBRecord[]) =>
      routeChanges(changesOf(records), {
        hooksOf: listWebhooks,
        foldersOf: async (owner) => (await folderStore.tree(owner)).folders,
        userPathOf: async (userId) => (await directory().getUserWithTeams(userId))?.user.userPath ?? userId,
        noteOf: noteStateOf,
        enqueue: enqueueJobs,
      }),
  };
});

/** Webhook delivery (queue function): each job signed, sent, logged, retried or dead-lettered. */
export const webhookDelivery = /* @__PURE__ */ once(() => {
  const one = (job: Parameters<typeof deliver>[0]) =>
    deliver(job, {
      hook: getWebhook,
      openSecret: async (sealed) => decryptSecret(sealed, await mfaEncryptionKey()),
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
    });
  return { deliverBatch: (messages: { id: string; body: string }[]) => deliverBatch(messages, one) };
});
