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
import { directory } from '../identity/wiring.ts';
import type { Bin, ContentHistory, ImageStore, ImageTypes, NotesStore } from './ports.ts';
import { Unauthenticated } from '../domain/errors.ts';
import {
  anchorBase,
  createComment,
  getComment,
  listComments,
  removeComments,
  saveComments,
} from './adapters/dynamo-comments.ts';
import {
  coalesceVersion,
  createVersion,
  dynamoVersionStore,
  getVersion,
  latestVersion,
  listVersions,
  nameVersion,
  renameVersion,
  versionContent,
} from './adapters/dynamo-versions.ts';
import { type CommentStore, CommentService } from './comments.ts';
import { type NoteOpener, type UserLookup, VersionService, type VersionStore } from './versions.ts';
import {
  createNote,
  DynamoNotesStore,
  getNote,
  history,
  listNotes,
  recordVisit,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  saveNote,
} from './adapters/dynamo-notes.ts';
import { putImage, S3ImageStore } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';
import { DynamoFolderStore } from './adapters/dynamo-folders.ts';
import { DynamoTrashStore } from './adapters/dynamo-trash.ts';
import { FolderService } from './folders.ts';
import { NotesService } from './service.ts';
import { TrashService } from './trash.ts';
import { dynamoWebhooks } from './adapters/dynamo-webhooks.ts';
import { WebhookService } from './webhooks.ts';
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

/** The Notes service on this store (lib/domain/only.ts narrows it to the methods an operation calls). */
const build = (
  store: NotesStore,
  images: ImageStore,
  imageTypes: ImageTypes,
  bin: Bin,
  contentHistory?: ContentHistory,
) =>
  new NotesService({
    store,
    images,
    imageTypes,
    directory: directory(),
    clock: systemClock,
    ids: systemIds,
    imageUrl: (key) => `${config.imageBaseUrl}/${key}`,
    bin,
    history: contentHistory,
  });
/** The notes store with only these methods: any other one rejects, naming itself. */
const narrow = (methods: Partial<NotesStore>) => only<NotesStore>('notes', methods);

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
const toTrash: Bin = { moveToTrash: (stored, userId) => trash().moveToTrash(stored, userId) };

// Each Notes function reaches the notes store through the getter of its operation, wired with only
// the store methods that operation calls (so its bundle and role hold no others).
/** ListNotes, ListTeamNotes: one Query of the owner's notes. */
export const noteListing = /* @__PURE__ */ once(() =>
  build(narrow({ listNotes }), noImages, noImageTypes, noBin),
);
/** GetHistory: one Query of the caller's history entries. */
export const readingHistory = /* @__PURE__ */ once(() =>
  build(narrow({ history }), noImages, noImageTypes, noBin),
);
/** CreateNote, CreateTeamNote: the create transaction (the Idempotency-Key side: notesIdempotency). */
export const noteCreator = /* @__PURE__ */ once(() =>
  build(narrow({ createNote }), noImages, noImageTypes, noBin),
);
/**
 * GetNote, GetTeamNote: the note's partition (Query), then the read recorded in the caller's history
 * (recordVisit: one TransactWriteItems bumping visitSeq and putting the history entry). A GET that
 * really writes: GET /v1/history lists what the caller read.
 */
export const noteReader = /* @__PURE__ */ once(() =>
  build(narrow({ getNote, recordVisit }), noImages, noImageTypes, noBin),
);

/** UploadNoteImage: the note (getNote), the image put to S3 (PutObject only) and image detection. */
export const notesWithImages = /* @__PURE__ */ once(() =>
  build(narrow({ getNote }), { ...noImages, put: putImage }, signatureImages, noBin),
);

/** DeleteNote, DeleteTeamNote: the note and its visitors (getNote), moved to the trash. */
export const notesWithBin = /* @__PURE__ */ once(() =>
  build(narrow({ getNote }), noImages, noImageTypes, toTrash),
);

/** Versions and comments open the note with getNote only. */
const noteOpener = /* @__PURE__ */ once(() => build(narrow({ getNote }), noImages, noImageTypes, noBin));
const openNote: NoteOpener = (userId, ref) => noteOpener().openNote(userId, ref);
const userOf: UserLookup = async (userId) => {
  const me = await directory().getUserWithTeams(userId);
  if (!me) throw new Unauthenticated('The token belongs to a user that no longer exists');
  return me.user;
};

const versionService = (store: VersionStore) =>
  new VersionService(store, openNote, userOf, systemClock, systemIds);
/** The version store with only these methods: any other one rejects, naming itself. */
const versionsWith = (methods: Partial<VersionStore>) =>
  versionService(only<VersionStore>('versions', methods));

/** Every version method (the full service, notes()); no function uses it. */
export const versions = /* @__PURE__ */ once(() => versionService(dynamoVersionStore()));
/** ListVersions: one Query of the note's versions. */
export const versionListing = /* @__PURE__ */ once(() => versionsWith({ list: listVersions }));
/** GetVersion, CompareVersions: a version and its content (GetItem each). */
export const versionReader = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, content: versionContent }),
);
/** CreateVersion: names a version in place or creates a named one (TransactWriteItems). */
export const versionNaming = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, latest: latestVersion, name: nameVersion, create: createVersion }),
);
/** UpdateVersion: renames a named version (UpdateItem). */
export const versionRenaming = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, rename: renameVersion }),
);
/** Told of every content change by notesWithHistory(): keeps the system versions. */
const versionKeeper = /* @__PURE__ */ once(() =>
  versionsWith({ latest: latestVersion, coalesce: coalesceVersion, create: createVersion }),
);

/**
 * UpdateNote, UpdateTeamNote: the note (getNote), saved (saveNote) with system versions kept on
 * content changes, or, when nothing changes, the read recorded in the editor's history (recordVisit).
 */
export const notesWithHistory = /* @__PURE__ */ once(() =>
  build(narrow({ getNote, recordVisit, saveNote }), noImages, noImageTypes, noBin, versionKeeper()),
);

/**
 * Every method, images, trash and versions: the admin CLI, the seed and the local runner's banner.
 * No function uses it (its bundle would hold every write).
 */
export const notes = /* @__PURE__ */ once(() =>
  build(new DynamoNotesStore(), new S3ImageStore(), signatureImages, toTrash, versions()),
);

/** Note comments (HackMD Comments and our comment-writing extension), with only these store methods. */
const commentsWith = (methods: Partial<CommentStore>) =>
  new CommentService(only<CommentStore>('comments', methods), openNote, userOf, systemClock, systemIds);
/** ListNoteComments: one Query of the note's comments (and the contents their anchors were written on). */
export const commentListing = /* @__PURE__ */ once(() =>
  commentsWith({ list: listComments, base: anchorBase }),
);
/** GetNoteComment: the comment, its thread head and its anchor's content (GetItem). */
export const commentReader = /* @__PURE__ */ once(() => commentsWith({ get: getComment, base: anchorBase }));
/** CreateNoteComment: the thread head of a reply, then the create transaction. */
export const commentCreator = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, create: createComment }),
);
/** UpdateNoteComment, ResolveNoteComment, UnresolveNoteComment: comments read, then saved in a transaction. */
export const commentChanges = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, save: saveComments, base: anchorBase }),
);
/** DeleteNoteComment: the note's comments (Query), the thread or reply removed in a transaction. */
export const commentRemoval = /* @__PURE__ */ once(() =>
  commentsWith({ list: listComments, remove: removeComments }),
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
  () => new IdempotencyKeys({ reserveIdempotencyKey, releaseIdempotencyKey }, systemClock),
);

/**
 * Webhooks (lib/notes/webhooks.ts); folder scopes are checked against the workspace's folders. Only
 * a create seals a signing secret (with the key that seals the MFA secrets, AES-256-GCM), so only
 * the create functions read that key (and bundle Secrets Manager).
 */
const webhookService = (seal: (secret: string) => Promise<string>) => {
  const folderStore = new DynamoFolderStore();
  return new WebhookService({
    store: dynamoWebhooks,
    directory: directory(),
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
  webhookService(async (secret) => encryptSecret(secret, await mfaEncryptionKey())),
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
