// The one place the Notes adapters are chosen and handed to its domain; built on first use.
// Only UploadNoteImage reaches the S3 image store and image detection (and bundles the S3
// client and the image signatures); only the trash purge also reaches S3, to delete images. A
// function bundles what its getter reaches, and no more (cold start).
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { systemIds } from '../domain/ids.ts';
import { IdempotencyKeys } from '../domain/idempotency.ts';
import { once } from '../domain/once.ts';
import { only } from '../domain/only.ts';
import { directory, teamAccess } from '../identity/wiring.ts';
import type { Bin, ContentHistory, Directory, ImageStore, ImageTypes } from './ports.ts';
import { Unauthenticated } from '../domain/errors.ts';
import { dynamoCommentStore } from './adapters/dynamo-comments.ts';
import { dynamoVersionStore } from './adapters/dynamo-versions.ts';
import { CommentService } from './comments.ts';
import { type NoteOpener, type UserLookup, VersionService } from './versions.ts';
import { DynamoNotesStore } from './adapters/dynamo-notes.ts';
import { deleteImages, S3ImageStore } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';
import {
  createFolder,
  deleteFolder,
  folderTree,
  getFolder,
  notesInFolder,
  putFolderOrder,
  updateFolder,
} from './adapters/dynamo-folders.ts';
import {
  dueForPurge,
  getTrashed,
  listTrash,
  purgeTrashed,
  restoreTrashed,
  trashNote,
} from './adapters/dynamo-trash.ts';
import { type FolderStore, FolderService } from './folders.ts';
import { NotesService } from './service.ts';
import { type ImageRemover, type TeamDirectory, type TrashStore, TrashService } from './trash.ts';
import { type WebhookDeps, type WebhookDirectory, WebhookService, type WebhookStore } from './webhooks.ts';
import { decryptSecret, encryptSecret } from '../bank/crypto.ts';
import { deliver, deliverBatch } from './events/delivery.ts';
import { routeChanges } from './events/router.ts';
import { checkDestination } from './adapters/destination-policy.ts';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  recordDelivery,
  setDeliveryPolicy,
  updateWebhook,
} from './adapters/dynamo-webhooks.ts';
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
    moveToTrash: (stored, userId) => trashBin().moveToTrash(stored, userId),
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

/**
 * No directory, for the operations that never ask it: a personal workspace's (it is the caller's
 * own), moving a note to the trash and the purge (the caller already authorized, or no caller). Their
 * functions bundle no team check (GetItem); team operations get teamAccess() (isMember, getTeam).
 */
const personal = /* @__PURE__ */ only<Directory>('directory', {});

/**
 * The folder service with only these folder store methods (lib/domain/only.ts; every other one
 * rejects), so each function's bundle and role hold only the commands its operation sends: the tree
 * is one Query, a folder one GetItem; create, update and delete are one TransactWriteItems each
 * (conditional on the tree's version), the caller's order one PutItem.
 */
const folderService = (store: Partial<FolderStore>, teams: Pick<Directory, 'isMember' | 'getTeam'>) =>
  new FolderService(only<FolderStore>('folders', store), teams, systemClock, systemIds);

/** ListFolders, GetFolderOrder: the tree. */
export const folderReader = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, personal));
/** ListTeamFolders, GetTeamFolderOrder: the membership, then the tree. */
export const teamFolderReader = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, teamAccess()));
/** GetFolder. */
export const folderLookup = /* @__PURE__ */ once(() => folderService({ get: getFolder }, personal));
/** GetTeamFolder. */
export const teamFolderLookup = /* @__PURE__ */ once(() => folderService({ get: getFolder }, teamAccess()));
/** CreateFolder. */
export const folderCreator = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, create: createFolder }, personal),
);
/** CreateTeamFolder. */
export const teamFolderCreator = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, create: createFolder }, teamAccess()),
);
/** UpdateFolder. */
export const folderUpdater = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, update: updateFolder }, personal),
);
/** UpdateTeamFolder. */
export const teamFolderUpdater = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, update: updateFolder }, teamAccess()),
);
/** DeleteFolder. */
export const folderRemover = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, delete: deleteFolder }, personal),
);
/** DeleteTeamFolder. */
export const teamFolderRemover = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, delete: deleteFolder }, teamAccess()),
);
/** UpdateFolderOrder. */
export const folderOrderer = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, putOrder: putFolderOrder }, personal),
);
/** UpdateTeamFolderOrder. */
export const teamFolderOrderer = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, putOrder: putFolderOrder }, teamAccess()),
);
/** ListNotes, ListTeamNotes with a folderId: the folder (GetItem), then its notes (Query of GSI3). */
export const folderNotes = /* @__PURE__ */ once(() =>
  folderService({ get: getFolder, notesIn: notesInFolder }, teamAccess()),
);
/** The folderPaths of every note response (lib/notes/http/glue.ts): a team's tree to its members. */
export const folderPaths = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, teamAccess()));

/** The trash service with only these trash store methods (every other one rejects). */
const trashService = (store: Partial<TrashStore>, images: ImageRemover, teams: TeamDirectory) =>
  new TrashService(
    only<TrashStore>('trash', store),
    images,
    teams,
    () => config.trashRetentionDays,
    systemClock,
  );

/** ListTrash: one Query of the caller's trash. */
export const trashListing = /* @__PURE__ */ once(() => trashService({ list: listTrash }, noImages, personal));
/** ListTeamTrash: the team (GetItem), then its trash (one Query). */
export const teamTrashListing = /* @__PURE__ */ once(() =>
  trashService({ list: listTrash }, noImages, teamAccess()),
);
/**
 * RestoreNote, BatchRestore (personal or team notes): the note's partition (Query), the team
 * checks (GetItem), the restore (TransactWriteItems; history entries past its room, UpdateItem).
 */
export const trashRestorer = /* @__PURE__ */ once(() =>
  trashService({ get: getTrashed, restore: restoreTrashed }, noImages, teamAccess()),
);
/** Where DeleteNote, DeleteTeamNote move a note (notesWithBin): TransactWriteItems, UpdateItem. */
const trashBin = /* @__PURE__ */ once(() => trashService({ trash: trashNote }, noImages, personal));

/** The trash purge (stream function): a purged note's items, then its images (S3 list and delete). */
export const trashPurge = /* @__PURE__ */ once(() =>
  trashService({ purge: purgeTrashed }, { deleteAll: deleteImages }, personal),
);

/** The sweep of every due note (admin CLI's purge-trash, tests): the purge and the due notes' Query. */
export const trashSweep = /* @__PURE__ */ once(() =>
  trashService({ due: dueForPurge, purge: purgeTrashed }, { deleteAll: deleteImages }, personal),
);

export { expiredNotesOf } from './adapters/dynamo-trash.ts';

/** Idempotency-Keys of Notes creates (lib/domain/idempotency.ts), kept in the table. */
export const notesIdempotency = /* @__PURE__ */ once(
  () => new IdempotencyKeys(new DynamoNotesStore(), systemClock),
);

/**
 * Webhooks (lib/notes/webhooks.ts), wired per operation (docs/architecture.md, "Bundles"): each
 * getter names the webhook store methods its operation reaches (lib/domain/only.ts), and a personal
 * operation reads no team (a team's, the team and the caller's membership: `teamAccess`). Only a
 * create checks a folder scope against the workspace's folders and seals a signing secret (with the
 * key that seals the MFA secrets, AES-256-GCM), so only the create functions read that key (and
 * bundle Secrets Manager) and the folder store.
 */
const webhookService = (
  store: Partial<WebhookStore>,
  teams: WebhookDirectory,
  create?: Pick<WebhookDeps, 'folderExists' | 'seal'>,
) =>
  new WebhookService({
    store: only<WebhookStore>('webhooks', store),
    directory: teams,
    folderExists: create?.folderExists ?? (() => Promise.reject(new Error('this function checks no folder'))),
    seal: create?.seal ?? (() => Promise.reject(new Error('this function seals no webhook secret'))),
    clock: systemClock,
    ids: systemIds,
    settings: {
      maxPerWorkspace: () => config.webhookLimit,
      allowHttp: () => config.webhookAllowHttp,
    },
  });

/** What a create needs besides the store: the folder scope's check and the secret's sealing. */
const creating = (): Pick<WebhookDeps, 'folderExists' | 'seal'> => ({
  folderExists: async (owner, folderId) => (await getFolder(owner, folderId)) !== undefined,
  seal: async (secret) => encryptSecret(secret, await mfaEncryptionKey()),
});

/** ListWebhooks, ListTeamWebhooks: one Query of the workspace's webhooks. */
export const webhookListing = /* @__PURE__ */ once(() => webhookService({ list: listWebhooks }, personal));
export const teamWebhookListing = /* @__PURE__ */ once(() =>
  webhookService({ list: listWebhooks }, teamAccess()),
);
/** CreateWebhook, CreateTeamWebhook: the limit and the webhook in one transaction. */
export const webhookCreator = /* @__PURE__ */ once(() =>
  webhookService({ create: createWebhook }, personal, creating()),
);
export const teamWebhookCreator = /* @__PURE__ */ once(() =>
  webhookService({ create: createWebhook }, teamAccess(), creating()),
);
/** GetWebhook, GetTeamWebhook: one GetItem. */
export const webhookLookup = /* @__PURE__ */ once(() => webhookService({ get: getWebhook }, personal));
export const teamWebhookLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook }, teamAccess()),
);
/** UpdateWebhook, UpdateTeamWebhook: one conditional UpdateItem. */
export const webhookUpdater = /* @__PURE__ */ once(() => webhookService({ update: updateWebhook }, personal));
export const teamWebhookUpdater = /* @__PURE__ */ once(() =>
  webhookService({ update: updateWebhook }, teamAccess()),
);
/** DeleteWebhook, DeleteTeamWebhook: the webhook and the count in one transaction. */
export const webhookRemover = /* @__PURE__ */ once(() => webhookService({ delete: deleteWebhook }, personal));
export const teamWebhookRemover = /* @__PURE__ */ once(() =>
  webhookService({ delete: deleteWebhook }, teamAccess()),
);
/** PingWebhook, PingTeamWebhook: one conditional UpdateItem (the ping and its own rate limit). */
export const webhookPinger = /* @__PURE__ */ once(() => webhookService({ ping: pingWebhook }, personal));
export const teamWebhookPinger = /* @__PURE__ */ once(() =>
  webhookService({ ping: pingWebhook }, teamAccess()),
);
/** List and export the delivery log (personal, team): the webhook's GetItem, the log's Query. */
export const webhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries }, personal),
);
export const teamWebhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries }, teamAccess()),
);
/** GetWebhookDelivery, GetTeamWebhookDelivery: the webhook's GetItem, the attempt's GetItem. */
export const webhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, personal),
);
export const teamWebhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, teamAccess()),
);

/** The webhook event router (stream function): table changes to delivery jobs on the queue. */
export const webhookEvents = /* @__PURE__ */ once(() => {
  return {
    route: (records: DynamoDBRecord[]) =>
      routeChanges(changesOf(records), {
        hooksOf: listWebhooks,
        foldersOf: async (owner) => (await folderTree(owner)).folders,
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
