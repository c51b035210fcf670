// A function bundles the AWS clients of the services it calls, and no other (fewer clients, faster cold starts), and of those
// only the commands its operation sends: the wiring's getters are pure and hand the domain
// only the adapter methods a function calls, so esbuild drops the rest. Each function is built as
// `sam build` builds it, by the cold-start bench's own build (infra/bench/coldstart.ts). The tables
// below are written by hand (not read from the bundles or from the IAM policies that `npm run
// deploy:sync` derives from them), so a getter that drags a client or a command into a function
// fails here, and a role cannot grow unnoticed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '#infra/bench/coldstart.ts';
import { type BuiltFunction, buildFunctions } from '#infra/deploy/build.ts';
import { commandsOf, transactionActionsOf } from '#infra/deploy/iam.ts';
import { listFunctions, listRoutes, ROOT } from '#infra/local/template.ts';

/** Functions that call a service besides DynamoDB; every other function calls DynamoDB only. */
const CALLS: Record<string, string[]> = {
  // Note images: the upload puts one; the trash purge deletes a purged note's images.
  NotesUploadNoteImageFunction: ['s3'],
  NotesPurgeTrashedNotesFunction: ['s3'],
  // Search indexes: the search reads them; the stream indexer reads, writes and replaces them.
  NotesSearchNotesFunction: ['s3'],
  NotesIndexNotesFunction: ['s3'],
  // The CSRF signing secret.
  NewsGetCsrfTokenFunction: ['secretsmanager'],
  // The MFA key: Verify opens sealed TOTP secrets and keys code hashes; CreateMfaToken seals the
  // mfa_token it stores under an Idempotency-Key. (Transfers and listing or deleting factors never
  // hash, seal or open anything.)
  BankVerifyFunction: ['secretsmanager'],
  BankCreateMfaTokenFunction: ['secretsmanager'],
  // Webhooks: a create seals the signing secret with the MFA key.
  NotesCreateWebhookFunction: ['secretsmanager'],
  NotesCreateTeamWebhookFunction: ['secretsmanager'],
  // The event router puts jobs on the delivery queue; the delivery opens the secret, requeues, dead-letters.
  NotesRouteWebhookEventsFunction: ['sqs'],
  // Live typing's windows: each closed with its note.updated onto the delivery queue.
  NotesCloseLiveWindowsFunction: ['sqs'],
  NotesDeliverWebhooksFunction: ['secretsmanager', 'sqs'],
  // Live editing (docs/live.md): the message function and the stream function read (and the stream
  // writes) a large document's state in S3 and send through API Gateway's @connections; a REST
  // content change reaches the live document and its connections (the state read, the relay).
  NotesLiveMessageFunction: ['execute-api', 's3'],
  // $disconnect: the removal of the gone connection's cursors, to the note's other connections.
  NotesLiveDisconnectFunction: ['execute-api'],
  NotesSyncLiveFunction: ['execute-api', 's3'],
  NotesUpdateNoteFunction: ['execute-api', 's3'],
  NotesUpdateTeamNoteFunction: ['execute-api', 's3'],
  // Codes by SMS, voice (End User Messaging) and e-mail, hashed (and sealed in the outbox) with the
  // MFA key; a push notified by SNS mobile push; a passkey's challenge sealed.
  BankStartVerificationFunction: ['secretsmanager', 'ses', 'sms-voice', 'sns'],
  // Enrolment: an activation code sent like a verification's; the otp secret or passkey challenge sealed.
  BankEnrollDeviceFunction: ['secretsmanager', 'ses', 'sms-voice'],
  // Activation opens the sealed secret, code hash or challenge.
  BankActivateDeviceFunction: ['secretsmanager'],
  // The device's platform endpoint (SNS mobile push).
  BankActivatePushFunction: ['sns'],
  // The matched number is kept as an HMAC under the MFA key.
  BankAnswerPushChallengeFunction: ['secretsmanager'],
};
/**
 * The Bank 405 fallback answers from the request alone; the Notes one also counts a valid token
 * against its rate limit (DynamoDB), as every Notes route does.
 */
const NO_CLIENT = new Set(['BankMethodNotAllowedFunction']);

const expected = (id: string) => (NO_CLIENT.has(id) ? [] : ['dynamodb', ...(CALLS[id] ?? [])].sort());

const out = mkdtempSync(join(tmpdir(), 'tri-api-clients-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('AWS clients in function bundles', { timeout: 60_000 }, () => {
  const functions = listFunctions();

  it('names only functions of template.yaml', () => {
    const ids = new Set(functions.map((f) => f.id));
    for (const id of [...Object.keys(CALLS), ...NO_CLIENT]) expect(ids.has(id), id).toBe(true);
  });

  it.each(functions)('$id bundles the clients it calls', async ({ id, entry, metadata }) => {
    const { EntryPoints, ...bp } = metadata.BuildProperties;
    const { clients } = await build(join(ROOT, entry), join(out, id), bp);
    expect(clients).toEqual(expected(id));
  });
});

// The commands each operation's bundle sends (DynamoDB unless prefixed), by hand. Authentication sends
// one command: Notes counts the call in the token's rate-limit window (UpdateItem), Bank reads the
// token (GetItem). News (no tokens) counts every response in the status counters (UpdateItem).
// Every adapter a function uses is a module of functions wired per operation (docs/architecture.md,
// "Bundles"), so no entry holds a command its operation never sends.
// Every Notes note, history, image, version and comment function sends the rate-limit UpdateItem and
// the directory's reads (GetItem of a team or a membership, Query of the user's partition); of the
// notes, version and comment stores (modules of functions) only what its operation calls.
const NOTES_BASE = ['GetItem', 'Query', 'UpdateItem'];
// A note's history entry: Put of the entry, ADD visitSeq on the visit counter (UpdateItem), and the
// entry taken back (DeleteItem) when the note was trashed meanwhile.
const HISTORY_ENTRY = ['DeleteItem', 'PutItem'];
// How one content maps into another for comment anchors, stored once diffed (a PutItem of a cache
// item with its own ttl: the diff is bounded work done once per pair of contents, not per read).
const ANCHOR_RUNS = 'PutItem';
/** An Idempotency-Key: reserved (PutItem, and GetItem of the holder when taken), marked released on failure (UpdateItem). */
const KEY = ['GetItem', 'PutItem', 'UpdateItem'];
// The Bank's and the comments' writes of one change: a transaction when several items change
// together, one conditional Put, Update or Delete when only one does (half the write units).
const ONE_OR_MORE = ['DeleteItem', 'PutItem', 'TransactWriteItems', 'UpdateItem'];
const SECRET = 'secretsmanager:GetSecretValue';
/** A REST content change into the live document: its Query (and a large state's GetObject), the
 * change's PutItem, the note's connections (Query), PostToConnection, a gone one's BatchWriteItem. */
const LIVE_BRIDGE = ['BatchWriteItem', 'PutItem', 's3:GetObject', 'execute-api:PostToConnection'];
const SENDS: Record<string, string[]> = {
  // Exactly what they send: the rate-limit UpdateItem and one Query of the user's partition.
  NotesGetMeFunction: ['Query', 'UpdateItem'],
  // A note page (no token): the note's partition (Query), a permalink's owner path and guard (GetItem).
  NotesGetPageFunction: ['GetItem', 'Query'],
  NotesListTeamsFunction: ['Query', 'UpdateItem'],
  // Listing: one Query of the owner's notes (GSI1). History: one Query of the caller's entries (GSI2).
  NotesListNotesFunction: [...NOTES_BASE],
  NotesListTeamNotesFunction: [...NOTES_BASE],
  NotesGetHistoryFunction: [...NOTES_BASE],
  // Create: the content's PutItem, then the note, permalink guard, folder count and the creator's
  // history entry in one transaction, which also completes the Idempotency-Key; the content taken
  // back (DeleteItem) when the transaction is cancelled.
  NotesCreateNoteFunction: [...NOTES_BASE, 'DeleteItem', 'TransactWriteItems', ...KEY],
  NotesCreateTeamNoteFunction: [...NOTES_BASE, 'DeleteItem', 'TransactWriteItems', ...KEY],
  // A GET that really writes: the note's partition (Query), then the read recorded in the caller's
  // history (GET /v1/history lists it). Never BatchWriteItem nor a transaction.
  NotesGetNoteFunction: [...NOTES_BASE, ...HISTORY_ENTRY],
  NotesGetTeamNoteFunction: [...NOTES_BASE, ...HISTORY_ENTRY],
  // Update: the save transaction (or, when nothing changes, the history entry), the system version
  // kept (Query of the newest, a transaction coalescing or creating one).
  // A change of metadata alone: the editor's entry, then META, single-item writes.
  // A content change also reaches the note's live document (LIVE_BRIDGE).
  NotesUpdateNoteFunction: [...NOTES_BASE, ...HISTORY_ENTRY, 'TransactWriteItems', ...LIVE_BRIDGE],
  NotesUpdateTeamNoteFunction: [...NOTES_BASE, ...HISTORY_ENTRY, 'TransactWriteItems', ...LIVE_BRIDGE],
  // Delete: the note with its visitors (Query), then moved to the trash (one TransactWriteItems).
  // The trash's transaction, then one BatchWriteItem that takes the readers' history entries out.
  NotesDeleteNoteFunction: [...NOTES_BASE, 'TransactWriteItems', 'BatchWriteItem'],
  NotesDeleteTeamNoteFunction: [...NOTES_BASE, 'TransactWriteItems', 'BatchWriteItem'],
  // Upload: the note (Query), the image put; no S3 list or delete (those are the trash purge's).
  NotesUploadNoteImageFunction: [...NOTES_BASE, 's3:PutObject'],
  // Folders: the tree is one Query, a folder one GetItem; create, update (a move too) and delete are
  // one TransactWriteItems each (with the tree's version), the caller's order one PutItem. A personal
  // workspace is the caller's own (no team check); a team one checks the membership (GetItem; the
  // team's GetItem when not a member). The GETs write only the rate-limit UpdateItem.
  NotesListFoldersFunction: ['Query', 'UpdateItem'],
  NotesCreateFolderFunction: ['Query', 'TransactWriteItems', 'UpdateItem'],
  NotesGetFolderOrderFunction: ['Query', 'UpdateItem'],
  NotesUpdateFolderOrderFunction: ['PutItem', 'Query', 'UpdateItem'],
  NotesGetFolderFunction: ['GetItem', 'UpdateItem'],
  NotesUpdateFolderFunction: ['Query', 'TransactWriteItems', 'UpdateItem'],
  NotesDeleteFolderFunction: ['Query', 'TransactWriteItems', 'UpdateItem'],
  NotesListTeamFoldersFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesCreateTeamFolderFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesGetTeamFolderOrderFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesUpdateTeamFolderOrderFunction: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
  NotesGetTeamFolderFunction: ['GetItem', 'UpdateItem'],
  NotesUpdateTeamFolderFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesDeleteTeamFolderFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  // The trash: a listing is one Query (a team's also reads the team, GetItem); a restore reads the
  // note's partition (Query), checks a team note's membership and team (GetItem) and writes one
  // TransactWriteItems (history entries past its 100 items, one UpdateItem each). The purge (stream,
  // no authentication) deletes META (DeleteItem), reads the note's partitions (Query), batch-deletes
  // the rest (BatchWriteItem) and lists and deletes its images.
  NotesListTrashFunction: ['Query', 'UpdateItem'],
  NotesBatchRestoreFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesRestoreNoteFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesListTeamTrashFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesPurgeTrashedNotesFunction: [
    'BatchWriteItem',
    'DeleteItem',
    'Query',
    's3:DeleteObjects',
    's3:ListObjectsV2',
  ],
  // A 405 to a valid token counts it in the rate limit (HackMD parity): the rate-limit UpdateItem only.
  NotesMethodNotAllowedFunction: ['UpdateItem'],
  // Versions and comments open the note (getNote: Query). Versions: the listing's Query, a version's
  // and its content's GetItem, naming one in place or creating a named one (TransactWriteItems),
  // renaming (UpdateItem, as the rate limit's).
  NotesListVersionsFunction: NOTES_BASE,
  // A version that shares the note's live content is created as its metadata alone (one PutItem);
  // one with content of its own, or a named one, in a transaction.
  NotesCreateVersionFunction: [...NOTES_BASE, 'TransactWriteItems', 'PutItem'],
  NotesUpdateVersionFunction: NOTES_BASE,
  NotesGetVersionFunction: NOTES_BASE,
  NotesCompareVersionsFunction: NOTES_BASE,
  // Comments: the listing's Query, a comment's and its anchor base's GetItem; every change one
  // TransactWriteItems (create, edit, resolve, reopen, delete). What shows an anchor also reads the
  // stored mapping between two contents (GetItem) and stores one it had to diff (ANCHOR_RUNS).
  NotesListNoteCommentsFunction: [...NOTES_BASE, ANCHOR_RUNS],
  NotesCreateNoteCommentFunction: [...NOTES_BASE, ...ONE_OR_MORE],
  NotesGetNoteCommentFunction: [...NOTES_BASE, ANCHOR_RUNS],
  NotesUpdateNoteCommentFunction: [...NOTES_BASE, ANCHOR_RUNS, ...ONE_OR_MORE],
  NotesDeleteNoteCommentFunction: [...NOTES_BASE, ...ONE_OR_MORE],
  NotesResolveNoteCommentFunction: [...NOTES_BASE, ANCHOR_RUNS, ...ONE_OR_MORE],
  NotesUnresolveNoteCommentFunction: [...NOTES_BASE, ANCHOR_RUNS, ...ONE_OR_MORE],
  // Webhooks, exactly (lib/notes/webhooks/wiring.ts, one getter per operation): the rate-limit UpdateItem, then
  // the store's commands: list a Query; get a GetItem; PATCH and ping a conditional UpdateItem (a
  // ping's own 10 s limit is that UpdateItem's condition); delete a TransactWriteItems (webhook and
  // count); the delivery log the webhook's GetItem and the log's Query (list, export) or GetItem (one
  // attempt). A team's operation adds the team's and the membership's GetItems. The creates: the
  // TransactWriteItems (limit and webhook), the sealing key, and the folder scope's GetItem; a first
  // webhook marks its workspace's writers (BatchWriteItem) and stamps its notes (Query, UpdateItem), a
  // last one's delete unmarks them (the count's GetItem, the marks' Query, TransactWriteItems).
  NotesListWebhooksFunction: ['Query', 'UpdateItem'],
  NotesCreateWebhookFunction: [
    'BatchWriteItem',
    'GetItem',
    'Query',
    'TransactWriteItems',
    'UpdateItem',
    SECRET,
  ],
  NotesGetWebhookFunction: ['GetItem', 'UpdateItem'],
  NotesUpdateWebhookFunction: ['UpdateItem'],
  NotesDeleteWebhookFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesPingWebhookFunction: ['UpdateItem'],
  NotesListWebhookDeliveriesFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesExportWebhookDeliveriesFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesGetWebhookDeliveryFunction: ['GetItem', 'UpdateItem'],
  NotesListTeamWebhooksFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesCreateTeamWebhookFunction: [
    'BatchWriteItem',
    'GetItem',
    'Query',
    'TransactWriteItems',
    'UpdateItem',
    SECRET,
  ],
  NotesGetTeamWebhookFunction: ['GetItem', 'UpdateItem'],
  NotesUpdateTeamWebhookFunction: ['GetItem', 'UpdateItem'],
  NotesDeleteTeamWebhookFunction: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'],
  NotesPingTeamWebhookFunction: ['GetItem', 'UpdateItem'],
  NotesListTeamWebhookDeliveriesFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesExportTeamWebhookDeliveriesFunction: ['GetItem', 'Query', 'UpdateItem'],
  NotesGetTeamWebhookDeliveryFunction: ['GetItem', 'UpdateItem'],
  // The event router: the note's META (GetItem), the webhooks, the folder tree and the user (Query),
  // then the delivery jobs onto the queue. The delivery: exactly the webhook and its log, the secret,
  // requeues.
  NotesRouteWebhookEventsFunction: ['GetItem', 'Query', 'sqs:SendMessageBatch'],
  // A window that hands its event on to a later one keeps the note before it (PutItem of the note's
  // live-window item), which the later window reads and deletes once announced.
  NotesCloseLiveWindowsFunction: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'sqs:SendMessageBatch'],
  NotesDeliverWebhooksFunction: ['GetItem', 'PutItem', 'UpdateItem', SECRET, 'sqs:SendMessage'],
  // Live editing: the connect URL opens the note (Query) and puts the ticket; $connect takes the ticket
  // (DeleteItem), opens the note and writes the connection's three items (BatchWriteItem); $disconnect
  // reads and removes them, reads its awareness claims (GetItem) and sends the others (Query,
  // PostToConnection) the removal of its cursors; $default reads the connection (GetItem), the document (Query; its HEAD's
  // GetItem; a large state's GetObject; the first time the HEAD's PutItem, and the state's PutObject
  // when large), stores an update (PutItem), relays (the note's connections: Query; PostToConnection;
  // a gone one's items BatchWriteItem) and closes a connection that lost access (DeleteConnection).
  // The stream function: the live text into the note as UpdateNote writes it, the compaction (HEAD's
  // GetItem, TransactWriteItems, the merged updates' BatchWriteItem, the states' S3 objects), and the
  // access rechecks (connections: Query, BatchWriteItem; a team's membership: GetItem).
  NotesOpenLiveFunction: [...NOTES_BASE, 'PutItem'],
  NotesOpenTeamLiveFunction: [...NOTES_BASE, 'PutItem'],
  NotesLiveConnectFunction: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'Query'],
  NotesLiveDisconnectFunction: ['BatchWriteItem', 'GetItem', 'Query', 'execute-api:PostToConnection'],
  // The note marked live (UpdateItem of META) before its document is created.
  NotesLiveMessageFunction: [
    'BatchWriteItem',
    'GetItem',
    'PutItem',
    'Query',
    'UpdateItem',
    's3:GetObject',
    's3:PutObject',
    'execute-api:DeleteConnection',
    'execute-api:PostToConnection',
  ],
  NotesSyncLiveFunction: [
    ...NOTES_BASE,
    ...HISTORY_ENTRY,
    'BatchWriteItem',
    'TransactWriteItems',
    's3:DeleteObject',
    's3:GetObject',
    's3:PutObject',
    'execute-api:DeleteConnection',
    'execute-api:PostToConnection',
  ],
  // Search: the rate-limit UpdateItem, the caller's teams (Query; a team's GetItem for a filter), the
  // indexes' heads and the hits' notes (BatchGetItem) and the segments (GetObject). The indexer: the
  // heads and the notes (BatchGetItem), a rebuild's listing (Query) and its checkpoint's name (the
  // head's GetItem), a segment's new head (conditional UpdateItem), the segments written and the
  // replaced ones deleted.
  NotesSearchNotesFunction: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem', 's3:GetObject'],
  NotesIndexNotesFunction: [
    'BatchGetItem',
    'GetItem',
    'Query',
    'UpdateItem',
    's3:DeleteObject',
    's3:GetObject',
    's3:PutObject',
  ],
  // News: every function counts its response in the status counters (UpdateItem, a GET that really
  // writes); the reads send one GetItem per entity and one Query per page of a list.
  NewsGetCsrfTokenFunction: ['UpdateItem', SECRET],
  NewsListNewsFunction: ['Query', 'UpdateItem'],
  NewsLatestNewsFunction: ['Query', 'UpdateItem'],
  NewsGetArticleFunction: ['GetItem', 'UpdateItem'],
  NewsGetArticleSummaryFunction: ['GetItem', 'UpdateItem'],
  // The user, then (when their articles are public and the page is in range) a Query of that page.
  NewsGetUserFunction: ['GetItem', 'Query', 'UpdateItem'],
  NewsGetUserSummaryFunction: ['GetItem', 'UpdateItem'],
  NewsGetTagFunction: ['GetItem', 'UpdateItem'],
  NewsGetTagSummaryFunction: ['GetItem', 'UpdateItem'],
  // Flushes this container's counts, then reads every shard.
  NewsGetStatusFunction: ['BatchGetItem', 'UpdateItem'],
  NewsMethodNotAllowedFunction: ['UpdateItem'],
  // Bank: every route reads the caller's token (GetItem); acting for another user reads the caller's
  // roles (GetItem). Transfers: the reads exactly the transfer's GetItem (and the listing's Query); a
  // create one transaction (the step-up consumed, the key completed); a change reads the transfer and
  // saves its next version in one transaction; create and POST-update take an Idempotency-Key.
  BankCreateTransferFunction: [...KEY, ...ONE_OR_MORE],
  BankListTransfersFunction: ['GetItem', 'Query'],
  BankGetTransferFunction: ['GetItem'],
  BankReplaceTransferFunction: ['GetItem', ...ONE_OR_MORE],
  BankUpdateTransferFunction: [...KEY, ...ONE_OR_MORE],
  // Factors: the listing one Query of the user's factors; the delete one transaction.
  BankListDevicesFunction: ['GetItem', 'Query'],
  BankDeleteDeviceFunction: ['GetItem', ...ONE_OR_MORE],
  // The factor (GetItem), then one transaction (starts limit, verification, outbox entry, key); a
  // starts counter on an older window is moved with a conditional PutItem and the transaction retried.
  // Codes by End User Messaging (sms, voice) or SES (email); a push notified by SNS mobile push.
  BankStartVerificationFunction: [
    ...KEY,
    ...ONE_OR_MORE,
    SECRET,
    'ses:SendEmail',
    'sms-voice:SendTextMessage',
    'sms-voice:SendVoiceMessage',
    'sns:Publish',
  ],
  // Enrolment: the user's factors (Query), then one transaction (the step-up consumed, the pending
  // factor, its code's outbox entry or push ticket); the code sent like a verification's.
  BankEnrollDeviceFunction: [
    ...KEY,
    ...ONE_OR_MORE,
    'Query',
    SECRET,
    'ses:SendEmail',
    'sms-voice:SendTextMessage',
    'sms-voice:SendVoiceMessage',
  ],
  // The factor, the attempt counted, the user's factors, then one activation transaction.
  BankActivateDeviceFunction: [...KEY, ...ONE_OR_MORE, 'Query', SECRET],
  // The ticket, the factor, then the activation (ticket used, device key stored); an SNS endpoint.
  BankActivatePushFunction: [...KEY, ...ONE_OR_MORE, 'Query', 'sns:CreatePlatformEndpoint'],
  // The verification (and for a push the user's pending pointer): reads only.
  BankGetVerificationFunction: ['BatchGetItem', 'GetItem'],
  BankReplaceRecoveryCodesFunction: [...KEY, ...ONE_OR_MORE],
  // Device JWT: the device's key; then the user's pending push and its verification. The per-source
  // limit of refused requests: its count read (GetItem), a refusal counted (UpdateItem; PutItem on a
  // new window).
  BankListPushChallengesFunction: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
  // As listing, the replay check, then one transaction (replay key, verification decided, last_used).
  BankAnswerPushChallengeFunction: ['BatchGetItem', ...KEY, ...ONE_OR_MORE, SECRET],
  // The verification (GetItem, or BatchGetItem with the mfa_token), the attempt counted (UpdateItem;
  // PutItem on a new window), then the approval (one transaction: the token consumed, the attempt given
  // back) or the failure recorded (UpdateItem).
  BankVerifyFunction: ['BatchGetItem', ...KEY, ...ONE_OR_MORE, SECRET],
  // The admin check (GetItem), then one transaction; the stored response is sealed with the MFA key.
  BankCreateMfaTokenFunction: [...KEY, ...ONE_OR_MORE, SECRET],
  BankMethodNotAllowedFunction: [],
};
const asCommand = (c: string) => (c.includes(':') ? c : `dynamodb:${c}`);

describe('SDK commands in function bundles (what their roles allow)', { timeout: 300_000 }, () => {
  let built: BuiltFunction[];
  beforeAll(async () => {
    built = await buildFunctions(join(out, 'all'), 'shared');
  }, 300_000);

  it('names every function of template.yaml, and only those', () => {
    expect(Object.keys(SENDS).sort()).toEqual(
      listFunctions()
        .map((f) => f.id)
        .sort(),
    );
  });

  it('each bundle sends exactly the commands of its operation', () => {
    for (const fn of built) {
      const sent = commandsOf(fn).map((c) => `${c.service}:${c.operation}`);
      expect.soft(sent, fn.id).toEqual([...new Set(SENDS[fn.id].map(asCommand))].sort());
    }
  });

  it('a GET of a note writes only its history entry: never a transaction nor a batch write', () => {
    for (const id of ['NotesGetNoteFunction', 'NotesGetTeamNoteFunction']) {
      const sent = commandsOf(built.find((f) => f.id === id)!).map((c) => c.operation);
      expect(sent, id).toContain('PutItem');
      for (const write of ['TransactWriteItems', 'BatchWriteItem'])
        expect(sent, `${id} ${write}`).not.toContain(write);
    }
  });

  it('a transaction is allowed only the kinds of items the bundle builds', () => {
    const itemsOf = (id: string) => transactionActionsOf(built.find((f) => f.id === id)!);
    // A comment's resolution rewrites comments (Put); a delete removes them and counts the head (Update).
    expect(itemsOf('NotesResolveNoteCommentFunction')).toEqual(['PutItem']);
    expect(itemsOf('NotesDeleteNoteCommentFunction')).toEqual(['DeleteItem', 'UpdateItem']);
    // Naming a version updates it in place, creating one puts it and its content; keeping a shared
    // version's content is conditional on the note still being at that version (ConditionCheck).
    expect(itemsOf('NotesCreateVersionFunction')).toEqual(['ConditionCheckItem', 'PutItem', 'UpdateItem']);
    // Every function that sends a transaction is allowed at least one kind of item.
    for (const fn of built)
      if (commandsOf(fn).some((c) => c.operation === 'TransactWriteItems'))
        expect(transactionActionsOf(fn).length, fn.id).toBeGreaterThan(0);
  });

  // Every GET route of template.yaml. The GETs that write: every one sends the rate-limit UpdateItem
  // (Notes) or the status counters' UpdateItem (News: every response counts); a read of a note also
  // records it in the caller's history (a PutItem of the entry, taken back with a DeleteItem when the
  // note was trashed meanwhile; GET /v1/history lists it); a read of comments stores the anchor
  // mapping it had to diff (one PutItem of a cache item); the device app's challenges count a
  // refused request of its source address (the per-source limit: a PutItem on a new window).
  const WRITING_READS = new Map([
    ['BankListPushChallengesFunction', ['PutItem']],
    ['NotesGetNoteFunction', ['PutItem', 'DeleteItem']],
    ['NotesGetTeamNoteFunction', ['PutItem', 'DeleteItem']],
    ['NotesListNoteCommentsFunction', [ANCHOR_RUNS]],
    ['NotesGetNoteCommentFunction', [ANCHOR_RUNS]],
  ]);
  it('no GET function may write, but a read of a note (history), of comments (anchors) or of push challenges (a refusal counted)', () => {
    const gets = [
      ...new Set(
        listRoutes()
          .filter((r) => r.method === 'GET')
          .map((r) => r.functionId),
      ),
    ];
    expect(gets.length).toBeGreaterThan(40);
    for (const id of gets) {
      const sent = commandsOf(built.find((f) => f.id === id)!).map((c) => c.operation);
      const writes = ['PutItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'].filter((w) =>
        sent.includes(w),
      );
      expect(writes, id).toEqual(WRITING_READS.get(id) ?? []);
    }
  });
});
