// Every key of the single table is built here, and only here. The table has generic key names:
//   PK / SK                 base table
//   GSI1PK / GSI1SK         index GSI1v2: an owner's lists (notes, trash), transfers by amount
//   GSI2PK / GSI2SK         index GSI2v2: a user's history, the trash's expiry, transfers by currency and time
//   GSI3PK / GSI3SK         index GSI3v2: a folder's notes, transfers by currency and amount
//   ttl                     TTL attribute (epoch seconds)
// Entity prefixes are upper case and end with '#'. Ids never contain '#'.
// Each section below belongs to one API; add new access patterns to your own section.
//
// Each index projects what its queries return (INCLUDE, INDEXES below, the same lists as
// template.yaml): never a counter (a token's rate-limit window, a note's visit sequence), never a
// note's content, so a write that changes only those costs no index write. DynamoDB cannot change
// an index's projection in place and caps the attributes an INCLUDE lists at 100 summed over the
// table's indexes (these use 90): a new listed field means a new index name and the ordered deploys
// of docs/deploy.md ("Upgrading a deployed table"). The indexes of the first layout (GSI1, GSI2,
// GSI3, projection ALL, the same key attributes) are LEGACY_INDEXES; functions query them while an
// upgrade has not yet built the new ones (config.legacyIndexes).

/** What a note listing reads (NoteRecord's stored fields and the webhook mark). */
const NOTE_LISTED = [
  'id',
  'shortId',
  'ownerId',
  'userPath',
  'teamPath',
  'title',
  'explicitTitle',
  'tags',
  'description',
  'createdAt',
  'lastChangedAt',
  'titleUpdatedAt',
  'tagsUpdatedAt',
  'lastChangeUser',
  'publishType',
  'publishedAt',
  'permalink',
  'readPermission',
  'writePermission',
  'commentPermission',
  'suggestEditPermission',
  'parentFolderId',
  'origin',
  'noteFeatures',
  'version',
  'hooked',
] as const;
/** What a transfer listing returns and filters on (lib/bank/adapters/dynamo-transfers.ts). */
const TRANSFER_LISTED = [
  'id',
  'userId',
  'amount',
  'currency',
  'destination',
  'description',
  'metadata',
  'created',
  'updated',
  'version',
  'qDestination',
  'qText',
] as const;
const union = (...lists: (readonly string[])[]) => [...new Set(lists.flat())];

export const INDEXES = {
  GSI1: {
    name: 'GSI1v2',
    pk: 'GSI1PK',
    sk: 'GSI1SK',
    // Notes of an owner, trash of an owner (+ deletion), transfers by amount.
    include: union(NOTE_LISTED, ['deletedAt', 'deletedBy', 'purgeAt'], TRANSFER_LISTED),
  },
  GSI2: {
    name: 'GSI2v2',
    pk: 'GSI2PK',
    sk: 'GSI2SK',
    // History entries (their copy of the note), the trash's expiry (what a purge needs: the note's
    // partition, owner and permalink guard), transfers by currency and time.
    include: union(['note'], ['id', 'shortId', 'ownerId', 'teamPath', 'permalink'], TRANSFER_LISTED),
  },
  GSI3: {
    name: 'GSI3v2',
    pk: 'GSI3PK',
    sk: 'GSI3SK',
    // Notes of a folder, transfers by currency and amount.
    include: union(NOTE_LISTED, TRANSFER_LISTED),
  },
} as const satisfies Record<string, { name: string; pk: string; sk: string; include: string[] }>;
export type IndexId = keyof typeof INDEXES;
/** The first layout's indexes (projection ALL), kept only while a deployed table is upgraded. */
export const LEGACY_INDEXES: Record<IndexId, string> = { GSI1: 'GSI1', GSI2: 'GSI2', GSI3: 'GSI3' };

export const TABLE_KEYS = {
  pk: 'PK',
  sk: 'SK',
  ttl: 'ttl',
  indexes: [INDEXES.GSI1.name, INDEXES.GSI2.name, INDEXES.GSI3.name],
} as const;

export interface Key {
  PK: string;
  SK: string;
}

/** Zero-padded decimal, so numbers sort as strings. */
export const pad = (n: number, width = 16): string => Math.trunc(n).toString().padStart(width, '0');

// ---- identity (users, teams, memberships, API tokens, roles) ----------------------------------
const PROFILE = 'PROFILE';
export const identityKeys = {
  /** User profile. Item also carries `roles`. */
  user: (userId: string): Key => ({ PK: `USER#${userId}`, SK: PROFILE }),
  /** SK of the profile item in a user's partition. */
  profileSk: PROFILE,
  /** Uniqueness guard for a user's path. */
  userPath: (userPath: string): Key => ({ PK: `USERPATH#${userPath}`, SK: 'USERPATH' }),
  /** Everything under a user's partition: PROFILE and MEMBER# items (one Query for /me). */
  userPartition: (userId: string): string => `USER#${userId}`,
  /** Membership, seen from the user: carries a copy of the team record. */
  membershipOfUser: (userId: string, teamPath: string): Key => ({
    PK: `USER#${userId}`,
    SK: `MEMBER#${teamPath}`,
  }),
  memberPrefix: 'MEMBER#',
  /** Team record, keyed by its path (paths are immutable). */
  team: (teamPath: string): Key => ({ PK: `TEAM#${teamPath}`, SK: 'TEAM' }),
  /** Membership, seen from the team. */
  membershipOfTeam: (teamPath: string, userId: string): Key => ({
    PK: `TEAM#${teamPath}`,
    SK: `MEMBER#${userId}`,
  }),
  teamPartition: (teamPath: string): string => `TEAM#${teamPath}`,
  /**
   * API token, keyed by the SHA-256 of the token. It carries the rate-limit window's counter and
   * sits in no index (nothing lists a user's tokens; the first layout's GSI1 keys TOKENS#<userId>
   * are removed by the migration step token-index-keys).
   */
  token: (tokenHash: string): Key => ({ PK: `TOKEN#${tokenHash}`, SK: 'TOKEN' }),
  /** GSI1PK prefix of the first layout's token items (infra/admin/migrate). */
  legacyTokensPrefix: 'TOKENS#',
};

// ---- notes ------------------------------------------------------------------------------------
/**
 * Which of a note's two content items holds its content (META's `contentSlot`; absent: A). A content
 * change writes the other one with a PutItem, then the note's transaction points META at it, so the
 * content is billed once, never inside the transaction (lib/notes/notes/adapters/dynamo-notes.ts).
 */
export type ContentSlot = 'A' | 'B';
/** Who owns a note: a user (personal note) or a team (team note). */
export type NoteOwnerKey = { userId: string } | { teamPath: string };
const noteOwner = (o: NoteOwnerKey) => ('userId' in o ? `USER#${o.userId}` : `TEAM#${o.teamPath}`);

export const notesKeys = {
  /** A note's partition, keyed by its shortId: NOTE#META, NOTE#CONTENT, NOTE#VISITS and one VISIT# item per reader. */
  notePartition: (shortId: string): string => `NOTE#${shortId}`,
  /** Metadata (everything but the content); GSI1 lists an owner's notes, most recently changed first. */
  noteMeta: (shortId: string): Key => ({ PK: `NOTE#${shortId}`, SK: 'NOTE#META' }),
  /** The content, apart so listings never read it. */
  noteContent: (shortId: string, slot?: ContentSlot): Key => ({
    PK: `NOTE#${shortId}`,
    SK: slot === 'B' ? 'NOTE#CONTENT#B' : 'NOTE#CONTENT',
  }),
  /**
   * The visit counter (`visitSeq`, bumped after every history entry is written; `deletedAt` once the
   * note is trashed): a few bytes with no index keys, so a read's bump costs 1 write unit. Absent = 0.
   */
  noteVisits: (shortId: string): Key => ({ PK: `NOTE#${shortId}`, SK: 'NOTE#VISITS' }),
  /** SK prefix of META, CONTENT and VISITS (one Query reads them, and no VISIT# item). */
  noteItemPrefix: 'NOTE#',
  /** GSI1 keys of a note's META item. */
  notesOfOwner: (owner: NoteOwnerKey, lastChangedAt: number, shortId: string) => ({
    GSI1PK: `NOTES#${noteOwner(owner)}`,
    GSI1SK: `${pad(lastChangedAt)}#${shortId}`,
  }),
  notesOfOwnerPartition: (owner: NoteOwnerKey): string => `NOTES#${noteOwner(owner)}`,
  /** A user's last read/change of a note (history entry); GSI2 lists a user's history, newest first. */
  visit: (shortId: string, userId: string): Key => ({ PK: `NOTE#${shortId}`, SK: `VISIT#${userId}` }),
  /** SK prefix of a note's history entries (one Query of its partition reads them all). */
  visitPrefix: 'VISIT#',
  visitsOfUser: (userId: string, at: number, shortId: string) => ({
    GSI2PK: `HISTORY#${userId}`,
    GSI2SK: `${pad(at)}#${shortId}`,
  }),
  visitsOfUserPartition: (userId: string): string => `HISTORY#${userId}`,
  /** Uniqueness guard of a permalink within its owner. */
  permalink: (owner: NoteOwnerKey, permalink: string): Key => ({
    PK: `PERMALINK#${noteOwner(owner)}`,
    SK: `PERMALINK#${permalink}`,
  }),
  /** An Idempotency-Key of one caller for Notes creates, keyed by the SHA-256 of the key. */
  idempotency: (userId: string, keyHash: string): Key => ({
    PK: `IDEMPOTENCY#NOTES#${userId}#${keyHash}`,
    SK: 'IDEMPOTENCY',
  }),
};

// Folders of one owner (a user or a team) live in one partition, so one Query reads the whole tree
// (at most MAX_FOLDERS items): FOLDER#<id> items, the TREE item (version of the tree's structure,
// the optimistic lock of every create/move/delete) and one ORDER#<userId> item per user's ordering.
// A note in a folder carries GSI3 keys (the folder's notes, most recently changed first).
const folderPartition = (owner: NoteOwnerKey) => `FOLDERS#${noteOwner(owner)}`;
export const folderKeys = {
  folderPartition,
  folder: (owner: NoteOwnerKey, folderId: string): Key => ({
    PK: folderPartition(owner),
    SK: `FOLDER#${folderId}`,
  }),
  folderPrefix: 'FOLDER#',
  tree: (owner: NoteOwnerKey): Key => ({ PK: folderPartition(owner), SK: 'TREE' }),
  order: (owner: NoteOwnerKey, userId: string): Key => ({
    PK: folderPartition(owner),
    SK: `ORDER#${userId}`,
  }),
  orderPrefix: 'ORDER#',
  /** GSI3 keys of a note's META item while it sits in a folder. */
  notesOfFolder: (folderId: string, lastChangedAt: number, shortId: string) => ({
    GSI3PK: `FOLDERNOTES#${folderId}`,
    GSI3SK: `${pad(lastChangedAt)}#${shortId}`,
  }),
  notesOfFolderPartition: (folderId: string): string => `FOLDERNOTES#${folderId}`,
};

// Versions and comments of a note: each in a partition of its own beside the note's (so reading or
// trashing a note never reads them); a trashed note keeps them untouched, its purge deletes both
// partitions. Version and comment ids are UUIDv7 (time-ordered), so SK order is creation order.
export const revisionKeys = {
  versionsPartition: (shortId: string): string => `NOTEVERSIONS#${shortId}`,
  /** A version's metadata (small: listings read only these). */
  version: (shortId: string, versionId: string): Key => ({
    PK: `NOTEVERSIONS#${shortId}`,
    SK: `VERSION#${versionId}`,
  }),
  versionPrefix: 'VERSION#',
  /** A version's content, compressed (apart from the metadata so listings never read it). */
  versionBody: (shortId: string, versionId: string): Key => ({
    PK: `NOTEVERSIONS#${shortId}`,
    SK: `VBODY#${versionId}`,
  }),
  /** How many named versions the note has (`named`): the cap's counter, in the naming's transaction. */
  namedVersions: (shortId: string): Key => ({ PK: `NOTEVERSIONS#${shortId}`, SK: 'NAMED' }),
  commentsPartition: (shortId: string): string => `NOTECOMMENTS#${shortId}`,
  comment: (shortId: string, commentId: string): Key => ({
    PK: `NOTECOMMENTS#${shortId}`,
    SK: `COMMENT#${commentId}`,
  }),
  commentPrefix: 'COMMENT#',
  /** The content an anchored comment was written against (compressed), keyed by its SHA-256. */
  anchorBase: (shortId: string, contentHash: string): Key => ({
    PK: `NOTECOMMENTS#${shortId}`,
    SK: `ANCHORBASE#${contentHash}`,
  }),
  /** How one content's offsets map into another's (a diff of the two, for anchors), by their SHA-256s. */
  anchorRuns: (shortId: string, baseHash: string, liveHash: string): Key => ({
    PK: `NOTECOMMENTS#${shortId}`,
    SK: `ANCHORRUNS#${baseHash}#${liveHash}`,
  }),
};

// Trash: a trashed note keeps its items (META, CONTENT, VISIT#, permalink guard), each with `ttl`;
// its META leaves the owner's GSI1 list for the owner's trash list and joins the expiry index
// (GSI2, one partition ordered by purge time: what a sweep purges). History entries drop their GSI2 keys.
export const trashKeys = {
  trashOfOwner: (owner: NoteOwnerKey, deletedAt: number, shortId: string) => ({
    GSI1PK: `TRASH#${noteOwner(owner)}`,
    GSI1SK: `${pad(deletedAt)}#${shortId}`,
  }),
  trashOfOwnerPartition: (owner: NoteOwnerKey): string => `TRASH#${noteOwner(owner)}`,
  expiry: (purgeAt: number, shortId: string) => ({
    GSI2PK: 'TRASH#EXPIRY',
    GSI2SK: `${pad(purgeAt)}#${shortId}`,
  }),
  expiryPartition: 'TRASH#EXPIRY',
  /** GSI2SK upper bound of the notes to purge at `until` (epoch ms). */
  expiryUntil: (until: number): string => `${pad(until)}#~`,
};

// Webhooks of a workspace live in one partition (one Query lists them; the COUNT item caps them,
// in the same transaction as a create or delete). Each webhook's delivery log is its own partition,
// newest last (delivery ids sort by time); every attempt carries `ttl` (the retention window).
const webhooksPartition = (owner: NoteOwnerKey) => `WEBHOOKS#${noteOwner(owner)}`;
export const webhookKeys = {
  webhooksPartition,
  webhook: (owner: NoteOwnerKey, hookId: string): Key => ({
    PK: webhooksPartition(owner),
    SK: `WEBHOOK#${hookId}`,
  }),
  webhookPrefix: 'WEBHOOK#',
  count: (owner: NoteOwnerKey): Key => ({ PK: webhooksPartition(owner), SK: 'COUNT' }),
  deliveriesPartition: (hookId: string): string => `DELIVERIES#${hookId}`,
  delivery: (hookId: string, deliveryId: string): Key => ({
    PK: `DELIVERIES#${hookId}`,
    SK: `DELIVERY#${deliveryId}`,
  }),
  deliveryPrefix: 'DELIVERY#',
  /**
   * A live window whose check found a later window's write and left the event to it: the note
   * before it, which that later check counts `changes` from (lib/notes/webhooks/events/live-window.ts).
   */
  carriedWindow: (shortId: string): Key => ({ PK: `LIVEWINDOW#${shortId}`, SK: 'CARRIED' }),
  /**
   * "This workspace has a webhook", seen from a user who may write its notes (their own workspace,
   * or a team they are a member of): an item in the user's partition, so the one Query a note
   * create already makes of that partition tells it to stamp the note `hooked` (docs/architecture.md,
   * "Webhook events"). Sorts before MEMBER# and PROFILE.
   */
  workspaceMark: (userId: string, owner: NoteOwnerKey): Key => ({
    PK: identityKeys.userPartition(userId),
    SK: 'userId' in owner ? 'HOOKED#USER' : `HOOKED#TEAM#${owner.teamPath}`,
  }),
  workspaceMarkPrefix: 'HOOKED#',
  /** How a mark item names its workspace (its `workspace`): `user`, or `team:<path>`. */
  markedWorkspace: (owner: NoteOwnerKey): string => ('userId' in owner ? 'user' : `team:${owner.teamPath}`),
};

// ---- news -------------------------------------------------------------------------------------
// Entities: one item each. Lists (the news list, each user's articles) are dense rank indexes:
// item i of a list has SK RANK#<i> (1-based, zero-padded), so page p is one Query with SK BETWEEN.
// The news list's TOTAL item sorts after every RANK# key (so a Query from RANK#<start> to TOTAL
// reaches it exactly when the page is the last or past the end).
// Status counters: N shard items, each its own partition; STATUS# is the only prefix the News
// functions may update (template.yaml IAM condition).
const newsRank = (rank: number): string => `RANK#${pad(rank, 10)}`;
export const newsKeys = {
  article: (id: number): Key => ({ PK: `NEWS#ARTICLE#${id}`, SK: 'ARTICLE' }),
  user: (id: number): Key => ({ PK: `NEWS#USER#${id}`, SK: 'USER' }),
  tag: (id: number): Key => ({ PK: `NEWS#TAG#${id}`, SK: 'TAG' }),
  /** Partition of the news list (all articles, newest first). */
  newsList: 'NEWS#LIST',
  /** Partition of a user's authored articles, newest first. */
  userArticles: (userId: number): string => `NEWS#USER#${userId}#ARTICLES`,
  rankSk: newsRank,
  rank: (list: string, rank: number): Key => ({ PK: list, SK: newsRank(rank) }),
  rankPrefix: 'RANK#',
  /** The list's size; its SK sorts after every RANK# key of the same partition. */
  listTotal: (list: string): Key => ({ PK: list, SK: 'TOTAL' }),
  statusShard: (shard: number): Key => ({ PK: `STATUS#NEWS#${pad(shard, 2)}`, SK: 'COUNTERS' }),
};

// ---- bank -------------------------------------------------------------------------------------
// Everything of one user lives in the partition BANK#<userId>: transfers, factors, verifications
// and the local code outbox. Transfer ids start with their creation time (see lib/bank/ids.ts), so
// SK order is (created, id) order. The GSIs order a user's transfers for the other listings.
const bankPartition = (userId: string) => `BANK#${userId}`;
const transfersOf = (userId: string) => `TRANSFERS#${userId}`;
const transfersOfIn = (userId: string, currency: string) => `TRANSFERS#${userId}#${currency}`;
/** Amount then id: amounts are at most 8 digits. */
const amountKey = (amount: number, id: string) => `${pad(amount, 8)}#${id}`;

const TRANSFER = 'TRANSFER#';
const MFATOKEN = 'MFATOKEN';

export const bankKeys = {
  transfer: (userId: string, transferId: string): Key => ({
    PK: bankPartition(userId),
    SK: `${TRANSFER}${transferId}`,
  }),
  /** The transfer id of a transfer item's SK. */
  transferIdOf: (sk: string): string => sk.slice(TRANSFER.length),
  /** GSI1: by amount; GSI2: by currency, by created; GSI3: by currency, by amount. */
  transferIndexes: (t: { userId: string; id: string; amount: number; currency: string }) => ({
    GSI1PK: transfersOf(t.userId),
    GSI1SK: amountKey(t.amount, t.id),
    GSI2PK: transfersOfIn(t.userId, t.currency),
    GSI2SK: t.id,
    GSI3PK: transfersOfIn(t.userId, t.currency),
    GSI3SK: amountKey(t.amount, t.id),
  }),
  /**
   * Where a listing reads: the index, its key names, the partition, and the sort key of a transfer
   * in it. `sortKeyOf` places any (amount, id) in the order, so ranges and cursors are built from it.
   */
  transferOrder: (userId: string, by: 'created' | 'amount', currency?: string) => {
    const sortKeyOf =
      by === 'created'
        ? (t: { id: string }) => (currency ? t.id : `${TRANSFER}${t.id}`)
        : (t: { id: string; amount: number }) => amountKey(t.amount, t.id);
    if (by === 'created' && !currency)
      return { index: undefined, pk: 'PK', sk: 'SK', partition: bankPartition(userId), sortKeyOf };
    if (by === 'created')
      return {
        index: 'GSI2' as const,
        pk: 'GSI2PK',
        sk: 'GSI2SK',
        partition: transfersOfIn(userId, currency!),
        sortKeyOf,
      };
    if (!currency)
      return {
        index: 'GSI1' as const,
        pk: 'GSI1PK',
        sk: 'GSI1SK',
        partition: transfersOf(userId),
        sortKeyOf,
      };
    return {
      index: 'GSI3' as const,
      pk: 'GSI3PK',
      sk: 'GSI3SK',
      partition: transfersOfIn(userId, currency),
      sortKeyOf,
    };
  },
  /** An enrolled factor. */
  device: (userId: string, deviceId: string): Key => ({
    PK: bankPartition(userId),
    SK: `DEVICE#${deviceId}`,
  }),
  devicePrefix: 'DEVICE#',
  bankPartition,
  verification: (userId: string, verificationId: string): Key => ({
    PK: bankPartition(userId),
    SK: `VERIFICATION#${verificationId}`,
  }),
  /** A code sent through the outbox sender, in sending order. */
  outbox: (userId: string, sentAtMs: number, verificationId: string): Key => ({
    PK: bankPartition(userId),
    SK: `OUTBOX#${pad(sentAtMs, 15)}#${verificationId}`,
  }),
  outboxPrefix: 'OUTBOX#',
  /** A recovery mfa_token, keyed by its SHA-256. */
  mfaToken: (tokenHash: string): Key => ({ PK: `${MFATOKEN}#${tokenHash}`, SK: MFATOKEN }),
  mfaTokenSk: MFATOKEN,
  /** The counter of an MFA abuse limit (lib/bank/limits.ts) of a factor, or of the user ('USER'). */
  mfaLimit: (userId: string, limit: string, subject: string): Key => ({
    PK: bankPartition(userId),
    SK: `LIMIT#${limit}#${subject}`,
  }),
  /** A push factor's activation ticket, keyed by its SHA-256 (the ticket is the device app's credential). */
  pushTicket: (ticketHash: string): Key => ({ PK: `PUSHTICKET#${ticketHash}`, SK: 'PUSHTICKET' }),
  /**
   * A passkey's credential id, claimed by the one factor that registered it (WebAuthn Level 3 §7.1:
   * unique per RP, across every user), keyed by the SHA-256 of the id.
   */
  passkeyCredential: (credentialHash: string): Key => ({
    PK: `PASSKEYCREDENTIAL#${credentialHash}`,
    SK: 'PASSKEYCREDENTIAL',
  }),
  /** An activated push device's key, by device id: a device JWT names only its device (`kid`). */
  pushDevice: (deviceId: string): Key => ({ PK: `PUSHDEVICE#${deviceId}`, SK: 'PUSHDEVICE' }),
  /** The user's one pending push verification (a new one supersedes it). */
  pushPending: (userId: string): Key => ({ PK: bankPartition(userId), SK: 'PUSHPENDING' }),
  /** A decision JWS already answered (by the hash of its signing input), refused if sent again. */
  pushReplay: (replayKey: string): Key => ({ PK: `PUSHREPLAY#${replayKey}`, SK: 'PUSHREPLAY' }),
  /** How many factor slots of the user are taken (at most 10: lib/bank/adapters/dynamo-factor-slots.ts). */
  factorSlots: (userId: string): Key => ({ PK: bankPartition(userId), SK: 'FACTORSLOTS' }),
  /** The user's recovery codes (a set of their SHA-256). */
  recoveryCodes: (userId: string): Key => ({ PK: bankPartition(userId), SK: 'RECOVERY' }),
  /** An Idempotency-Key of one caller, keyed by the SHA-256 of the key. */
  idempotency: (userId: string, keyHash: string): Key => ({
    PK: `IDEMPOTENCY#${userId}#${keyHash}`,
    SK: 'IDEMPOTENCY',
  }),
};

// ---- table migrations (infra/admin/migrate) ---------------------------------------------------
// One checkpoint item per (step, scan segment): the segment's LastEvaluatedKey after each page, and
// `done` once the segment is scanned, so a stopped `npm run admin -- migrate` resumes where it was.
export const migrationKeys = {
  checkpoint: (step: string, segment: number, segments: number): Key => ({
    PK: `MIGRATION#${step}`,
    SK: `SEGMENT#${pad(segment, 4)}#OF#${pad(segments, 4)}`,
  }),
  partitionPrefix: 'MIGRATION#',
};

// ---- search -------------------------------------------------------------------------------------
// A workspace's full-text index (lib/notes/search): its head item names the S3 object of the current
// generation; a writer stores the next generation only if the head still names the one it read.
export const searchKeys = {
  index: (workspace: string): Key => ({ PK: `SEARCH#${workspace}`, SK: 'INDEX' }),
};

// ---- live editing (lib/notes/live, docs/live.md) ----------------------------------------------------
// A note's live document lives in its own partition LIVE#<shortId>, apart from the note's items (the
// trash and the purge move NOTE# partitions whole): HEAD (the compacted state inline when small, else
// the S3 key of it, and its revision), U#<time>#<rand> one small item per accepted update (until a
// compaction merges it into the state), CONN#<connectionId> one per open connection. A connection is
// also found by its id (LIVECONN#) and by its user (LIVEUSER#: a team removal closes the user's
// connections). A ticket is kept under the SHA-256 of its secret, with a TTL.
export const liveKeys = {
  docPartition: (shortId: string): string => `LIVE#${shortId}`,
  head: (shortId: string): Key => ({ PK: `LIVE#${shortId}`, SK: 'HEAD' }),
  /** The content's room under the REST limit, taken by each growing update (a conditional write). */
  room: (shortId: string): Key => ({ PK: `LIVE#${shortId}`, SK: 'ROOM' }),
  update: (shortId: string, at: number, unique: string): Key => ({
    PK: `LIVE#${shortId}`,
    SK: `U#${pad(at)}#${unique}`,
  }),
  updatePrefix: 'U#',
  noteConnection: (shortId: string, connectionId: string): Key => ({
    PK: `LIVE#${shortId}`,
    SK: `CONN#${connectionId}`,
  }),
  connectionPrefix: 'CONN#',
  /** Which connection (and user) a Yjs client id's awareness belongs to (sorts before HEAD). */
  awarenessClaim: (shortId: string, clientId: number): Key => ({
    PK: `LIVE#${shortId}`,
    SK: `AWARE#${clientId}`,
  }),
  connection: (connectionId: string): Key => ({ PK: `LIVECONN#${connectionId}`, SK: 'CONN' }),
  userConnection: (userId: string, connectionId: string): Key => ({
    PK: `LIVEUSER#${userId}`,
    SK: `CONN#${connectionId}`,
  }),
  userPartition: (userId: string): string => `LIVEUSER#${userId}`,
  ticket: (ticketHash: string): Key => ({ PK: `LIVETICKET#${ticketHash}`, SK: 'TICKET' }),
  /** The S3 object of a large compacted state (a private prefix; the CDN serves notes/ only). */
  stateObject: (shortId: string, rev: number): string => `live/${shortId}/${pad(rev, 10)}.yjs`,
};
