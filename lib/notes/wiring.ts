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
import type {
  Bin,
  ContentHistory,
  ContentListener,
  Directory,
  ImageStore,
  ImageTypes,
  NotesStore,
} from './kernel/ports.ts';
import { Unauthenticated } from '../domain/errors.ts';
import {
  anchorBase,
  anchorRuns,
  createComment,
  getComment,
  keepAnchorRuns,
  listComments,
  removeComments,
  saveComments,
} from './revisions/adapters/dynamo-comments.ts';
import {
  coalesceVersion,
  createVersion,
  dynamoVersionStore,
  getVersion,
  latestVersion,
  listVersions,
  materializeVersion,
  nameVersion,
  renameVersion,
  versionContent,
} from './revisions/adapters/dynamo-versions.ts';
import { type CommentStore, CommentService } from './revisions/comments.ts';
import { type NoteOpener, type UserLookup, VersionService, type VersionStore } from './revisions/versions.ts';
import {
  createNote,
  DynamoNotesStore,
  getNote,
  history,
  listNotes,
  markLive,
  recordVisit,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  saveNote,
} from './notes/adapters/dynamo-notes.ts';
import { deleteImages, putImage, S3ImageStore } from './images/adapters/s3-images.ts';
import { signatureImages } from './images/adapters/signature-images.ts';
import {
  createFolder,
  deleteFolder,
  folderTree,
  getFolder,
  notesInFolder,
  putFolderOrder,
  updateFolder,
} from './folders/adapters/dynamo-folders.ts';
import {
  dueForPurge,
  getTrashed,
  listTrash,
  purgeTrashed,
  restoreTrashed,
  trashNote,
} from './trash/adapters/dynamo-trash.ts';
import { type FolderStore, FolderService } from './folders/folders.ts';
import { NotesService } from './notes/service.ts';
import { type ImageRemover, type TeamDirectory, type TrashStore, TrashService } from './trash/trash.ts';
import {
  type WebhookDeps,
  type WebhookDirectory,
  type WebhookMarks,
  WebhookService,
  type WebhookStore,
} from './webhooks/webhooks.ts';
import {
  markWriters,
  stampNotes,
  unmarkWriters,
  webhookCount,
  writersOf,
} from './webhooks/adapters/dynamo-hook-marks.ts';
import { encryptSecret } from '../bank/crypto.ts';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  deliveryPage,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  updateWebhook,
} from './webhooks/adapters/dynamo-webhooks.ts';
import { mfaEncryptionKey } from '../data/secrets.ts';
import {
  addConnection,
  appendUpdate,
  calibrateRoom,
  claimClientIds,
  ownedClientIds,
  compactDoc,
  connectionsOfNote,
  connectionsOfUser,
  countMessage,
  createDoc,
  dropDoc,
  getConnection,
  loadDoc,
  markConnectionClosed,
  putTicket,
  recentUpdates,
  removeConnection,
  reserveRoom,
  setConnectionAccess,
  takeTicket,
  tokenValid,
} from './live/adapters/dynamo-live.ts';
import { closeConnection, sendToConnection } from './live/adapters/api-gateway-peers.ts';
import { liveNotesOf, restToLive } from './live/notes-bridge.ts';
import type { ConnectionStore, DocStore, LiveTokens, Peers, TicketStore } from './live/ports.ts';
import { LiveDoor } from './live/door.ts';
import { LiveService } from './live/service.ts';

/** The Notes service on this store (lib/domain/only.ts narrows it to the methods an operation calls). */
const build = (
  store: NotesStore,
  images: ImageStore,
  imageTypes: ImageTypes,
  bin: Bin,
  contentHistory?: ContentHistory,
  contentListener?: ContentListener,
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
    contentListener,
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
const toTrash: Bin = { moveToTrash: (stored, userId) => trashBin().moveToTrash(stored, userId) };

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
 * (recordVisit: a PutItem of the history entry, then an UpdateItem bumping the visit counter). A
 * GET that really writes: GET /v1/history lists what the caller read.
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

const versionService = (store: VersionStore) => new VersionService(store, openNote, userOf, systemClock);
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
  versionsWith({
    latest: latestVersion,
    coalesce: coalesceVersion,
    create: createVersion,
    materialize: materializeVersion,
  }),
);

/**
 * UpdateNote, UpdateTeamNote: the note (getNote), saved (saveNote) with system versions kept on
 * content changes, or, when nothing changes, the read recorded in the editor's history (recordVisit).
 * A content change reaches the note's live document and its connections (restToLive: the document's
 * Query, its updates' PutItem, the connections' Query, PostToConnection).
 */
export const notesWithHistory = /* @__PURE__ */ once(() =>
  build(
    narrow({ getNote, recordVisit, saveNote }),
    noImages,
    noImageTypes,
    noBin,
    versionKeeper(),
    restToLive(liveBridge),
  ),
);

// ---- Live editing (lib/notes/live, docs/live.md) ----
/** Joining (door.ts: no Yjs in these bundles) with only these store methods. */
const liveDoor = (
  parts: {
    tickets?: Partial<TicketStore>;
    connections?: Partial<ConnectionStore>;
    tokens?: Partial<LiveTokens>;
    peers?: Pick<Peers, 'send'>;
  },
  notesService: () => NotesService,
) =>
  new LiveDoor({
    tickets: only<TicketStore>('tickets', parts.tickets ?? {}),
    connections: only<ConnectionStore>('connections', parts.connections ?? {}),
    tokens: only<LiveTokens>('tokens', parts.tokens ?? {}),
    notes: liveNotesOf(notesService),
    clock: systemClock,
    ids: systemIds,
    url: () => config.liveUrl,
    ...(parts.peers ? { peers: parts.peers } : {}),
  });
/** The document's side (service.ts) with only these store methods. */
const liveService = (
  parts: { connections?: Partial<ConnectionStore>; docs?: Partial<DocStore>; peers?: Peers },
  notesService: () => NotesService,
) =>
  new LiveService({
    connections: only<ConnectionStore>('connections', parts.connections ?? {}),
    docs: only<DocStore>('live documents', parts.docs ?? {}),
    peers: parts.peers ?? only<Peers>('peers', {}),
    notes: liveNotesOf(notesService),
  });
/** A message's document: read (caught up), created the first time, appended to. */
const messageDocs: Partial<DocStore> = {
  load: loadDoc,
  recent: recentUpdates,
  create: createDoc,
  append: appendUpdate,
  reserve: reserveRoom,
};
const peers: Peers = { send: sendToConnection, close: closeConnection };
/** The notes as live editing reads them: getNote only (access, content). */
const liveNoteReader = /* @__PURE__ */ once(() => build(narrow({ getNote }), noImages, noImageTypes, noBin));
/** The notes as a document's first message reads them: getNote, and the note marked live (markLive). */
const liveNoteStarter = /* @__PURE__ */ once(() =>
  build(narrow({ getNote, markLive }), noImages, noImageTypes, noBin),
);

/** OpenLive, OpenTeamLive: the note's access, the ticket's PutItem. */
export const liveOpening = /* @__PURE__ */ once(() =>
  liveDoor({ tickets: { put: putTicket } }, liveNoteReader),
);
/**
 * $connect: the ticket taken (DeleteItem), the note's access, the connection's three items, its
 * token still there (GetItem; else the items go again).
 */
export const liveConnecting = /* @__PURE__ */ once(() =>
  liveDoor(
    {
      tickets: { take: takeTicket },
      connections: { add: addConnection, remove: removeConnection },
      tokens: { valid: tokenValid },
    },
    liveNoteReader,
  ),
);
/**
 * $disconnect: the connection (GetItem) and its items removed; when it announced client ids, their
 * claims (a consistent GetItem each), the note's connections (Query) and the removal to each.
 */
export const liveDisconnecting = /* @__PURE__ */ once(() =>
  liveDoor(
    {
      connections: {
        get: getConnection,
        close: markConnectionClosed,
        owned: ownedClientIds,
        ofNote: connectionsOfNote,
      },
      peers: { send: sendToConnection },
    },
    () => {
      throw new Error('$disconnect reads no note');
    },
  ),
);
/** $default: the connection counted (UpdateItem), the document (created from the note the first time), the relay. */
export const liveMessages = /* @__PURE__ */ once(() =>
  liveService(
    {
      connections: {
        count: countMessage,
        remove: removeConnection,
        ofNote: connectionsOfNote,
        claim: claimClientIds,
      },
      docs: messageDocs,
      peers,
    },
    liveNoteStarter,
  ),
);
/** The REST side's bridge (notesWithHistory): the document, its updates, the note's connections. */
const liveBridge = /* @__PURE__ */ once(() =>
  liveService(
    {
      connections: { ofNote: connectionsOfNote, remove: removeConnection },
      docs: { load: loadDoc, append: appendUpdate, reserve: reserveRoom },
      peers: {
        send: sendToConnection,
        close: () => Promise.reject(new Error('the REST bridge closes no connection')),
      },
    },
    liveNoteReader,
  ),
);
/**
 * The stream function: updates flushed into the note (with versions: notesWithHistory's store) and
 * compacted; connections rechecked after access changes.
 */
export const liveChanges = /* @__PURE__ */ once(() =>
  liveService(
    {
      connections: {
        ofNote: connectionsOfNote,
        ofUser: connectionsOfUser,
        remove: removeConnection,
        setAccess: setConnectionAccess,
      },
      docs: { load: loadDoc, compact: compactDoc, drop: dropDoc, calibrate: calibrateRoom },
      peers,
    },
    notesWithHistory,
  ),
);
export { liveChangesOf, streamTasksOf } from './live/adapters/stream-live.ts';
export { runStreamTasks } from './live/stream-work.ts';

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
/** Following anchors: the stored mapping between two contents, else the base content to diff. */
const anchoring = { base: anchorBase, runs: anchorRuns, keepRuns: keepAnchorRuns };
/** ListNoteComments: one Query of the note's comments (and the contents their anchors were written on). */
export const commentListing = /* @__PURE__ */ once(() => commentsWith({ list: listComments, ...anchoring }));
/** GetNoteComment: the comment, its thread head and its anchor's content (GetItem). */
export const commentReader = /* @__PURE__ */ once(() => commentsWith({ get: getComment, ...anchoring }));
/** CreateNoteComment: the thread head of a reply, then the create transaction. */
export const commentCreator = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, create: createComment }),
);
/** UpdateNoteComment, ResolveNoteComment, UnresolveNoteComment: comments read, then saved in a transaction. */
export const commentChanges = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, save: saveComments, ...anchoring }),
);
/** DeleteNoteComment: the note's comments (Query), the thread or reply removed in a transaction. */
export const commentRemoval = /* @__PURE__ */ once(() =>
  commentsWith({ list: listComments, remove: removeComments }),
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
/** The folderPaths of every note response (lib/notes/notes/http.ts): a team's tree to its members. */
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

export { expiredNotesOf } from './trash/adapters/dynamo-trash.ts';

/** Idempotency-Keys of Notes creates (lib/domain/idempotency.ts), kept in the table. */
export const notesIdempotency = /* @__PURE__ */ once(
  () => new IdempotencyKeys({ reserveIdempotencyKey, releaseIdempotencyKey }, systemClock),
);

/**
 * Webhooks (lib/notes/webhooks/webhooks.ts), wired per operation (docs/architecture.md, "Bundles"): each
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
  marks?: Partial<WebhookMarks>,
) =>
  new WebhookService({
    store: only<WebhookStore>('webhooks', store),
    directory: teams,
    marks: marks && only<WebhookMarks>('marks', marks),
    folderExists: create?.folderExists ?? (() => Promise.reject(new Error('this function checks no folder'))),
    seal: create?.seal ?? (() => Promise.reject(new Error('this function seals no webhook secret'))),
    clock: systemClock,
    ids: systemIds,
    settings: {
      maxPerWorkspace: () => config.webhookLimit,
      allowHttp: () => config.webhookAllowHttp,
    },
  });

/**
 * The webhook marks (lib/notes/webhooks/adapters/dynamo-hook-marks.ts): a workspace's first webhook marks its
 * writers and stamps its notes before it commits; its last webhook's delete unmarks the writers.
 */
const firstHookMarks: Partial<WebhookMarks> = {
  count: webhookCount,
  writers: writersOf,
  markWriters,
  stampNotes,
};
const lastHookMarks: Partial<WebhookMarks> = { count: webhookCount, unmarkWriters };

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
  webhookService({ create: createWebhook }, personal, creating(), firstHookMarks),
);
export const teamWebhookCreator = /* @__PURE__ */ once(() =>
  webhookService({ create: createWebhook }, teamAccess(), creating(), firstHookMarks),
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
export const webhookRemover = /* @__PURE__ */ once(() =>
  webhookService({ delete: deleteWebhook }, personal, undefined, lastHookMarks),
);
export const teamWebhookRemover = /* @__PURE__ */ once(() =>
  webhookService({ delete: deleteWebhook }, teamAccess(), undefined, lastHookMarks),
);
/** PingWebhook, PingTeamWebhook: one conditional UpdateItem (the ping and its own rate limit). */
export const webhookPinger = /* @__PURE__ */ once(() => webhookService({ ping: pingWebhook }, personal));
export const teamWebhookPinger = /* @__PURE__ */ once(() =>
  webhookService({ ping: pingWebhook }, teamAccess()),
);
/**
 * List and export the delivery log (personal, team): the webhook's GetItem, then the page's Query
 * (and a counting Query), or the whole log's Query for the export.
 */
export const webhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries, deliveryPage }, personal),
);
export const teamWebhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries, deliveryPage }, teamAccess()),
);
/** GetWebhookDelivery, GetTeamWebhookDelivery: the webhook's GetItem, the attempt's GetItem. */
export const webhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, personal),
);
export const teamWebhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, teamAccess()),
);
