// A function bundles the AWS clients of the services it calls, and no other (issue 12), and of those
// only the commands its operation sends (issue 19): the wiring's getters are pure and hand the domain
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
import { commandsOf } from '#infra/deploy/iam.ts';
import { listFunctions, ROOT } from '#infra/local/template.ts';

/** Functions that call a service besides DynamoDB; every other function calls DynamoDB only. */
const CALLS: Record<string, string[]> = {
  // Note images: the upload puts one; the trash purge deletes a purged note's images.
  NotesUploadNoteImageFunction: ['s3'],
  NotesPurgeTrashedNotesFunction: ['s3'],
  // The CSRF signing secret.
  NewsGetCsrfTokenFunction: ['secretsmanager'],
  // The MFA key: step-up checks of sealed mfa_tokens, sealed factors and replays.
  BankCreateTransferFunction: ['secretsmanager'],
  BankUpdateTransferFunction: ['secretsmanager'],
  BankListDevicesFunction: ['secretsmanager'],
  BankDeleteDeviceFunction: ['secretsmanager'],
  BankVerifyFunction: ['secretsmanager'],
  BankCreateMfaTokenFunction: ['secretsmanager'],
  // Webhooks: a create seals the signing secret with the MFA key.
  NotesCreateWebhookFunction: ['secretsmanager'],
  NotesCreateTeamWebhookFunction: ['secretsmanager'],
  // The event router puts jobs on the delivery queue; the delivery opens the secret, requeues, dead-letters.
  NotesRouteWebhookEventsFunction: ['sqs'],
  NotesDeliverWebhooksFunction: ['secretsmanager', 'sqs'],
  // Codes by SMS and e-mail.
  BankStartVerificationFunction: ['secretsmanager', 'ses', 'sns'],
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
// one command: Notes counts the call in the token's rate-limit window (UpdateItem), Bank and News read
// the token (GetItem). News counts every response in the status counters (UpdateItem, BatchGetItem of
// the counters). Entries marked "wider" hold commands the operation never sends, kept by an adapter
// class whose unused methods stay in the bundle (docs/architecture.md, "Bundles": not narrowed yet);
// narrowing one means deleting them here.
const NOTES_STORE = [
  'BatchWriteItem',
  'DeleteItem',
  'GetItem',
  'PutItem',
  'Query',
  'TransactWriteItems',
  'UpdateItem',
];
const FOLDER_STORE = ['GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem'];
const TRASH_STORE = ['BatchWriteItem', 'DeleteItem', 'GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'];
const NEWS_READ = ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'];
const MFA = ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem'];
const SECRET = 'secretsmanager:GetSecretValue';
const WEBHOOK_STORE = ['GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem'];
/** A first webhook marks its workspace and stamps its notes; a last one's delete unmarks it. */
const WEBHOOK_MARKS = [...WEBHOOK_STORE, 'BatchWriteItem'];
const SENDS: Record<string, string[]> = {
  // Exactly what they send: the rate-limit UpdateItem and one Query of the user's partition.
  NotesGetMeFunction: ['Query', 'UpdateItem'],
  NotesListTeamsFunction: ['Query', 'UpdateItem'],
  // Wider: the notes store class (the GETs write the history, PutItem; never BatchWriteItem/DeleteItem).
  NotesListNotesFunction: NOTES_STORE,
  NotesCreateNoteFunction: NOTES_STORE,
  NotesGetNoteFunction: NOTES_STORE,
  NotesUpdateNoteFunction: NOTES_STORE,
  NotesDeleteNoteFunction: NOTES_STORE,
  NotesListTeamNotesFunction: NOTES_STORE,
  NotesCreateTeamNoteFunction: NOTES_STORE,
  NotesGetTeamNoteFunction: NOTES_STORE,
  NotesUpdateTeamNoteFunction: NOTES_STORE,
  NotesDeleteTeamNoteFunction: NOTES_STORE,
  NotesGetHistoryFunction: NOTES_STORE,
  NotesUploadNoteImageFunction: [...NOTES_STORE, 's3:DeleteObjects', 's3:ListObjectsV2', 's3:PutObject'],
  // Wider: the folder store class.
  NotesListFoldersFunction: FOLDER_STORE,
  NotesCreateFolderFunction: FOLDER_STORE,
  NotesGetFolderOrderFunction: FOLDER_STORE,
  NotesUpdateFolderOrderFunction: FOLDER_STORE,
  NotesGetFolderFunction: FOLDER_STORE,
  NotesUpdateFolderFunction: FOLDER_STORE,
  NotesDeleteFolderFunction: FOLDER_STORE,
  NotesListTeamFoldersFunction: FOLDER_STORE,
  NotesCreateTeamFolderFunction: FOLDER_STORE,
  NotesGetTeamFolderOrderFunction: FOLDER_STORE,
  NotesUpdateTeamFolderOrderFunction: FOLDER_STORE,
  NotesGetTeamFolderFunction: FOLDER_STORE,
  NotesUpdateTeamFolderFunction: FOLDER_STORE,
  NotesDeleteTeamFolderFunction: FOLDER_STORE,
  // Wider: the trash store class.
  NotesListTrashFunction: TRASH_STORE,
  NotesBatchRestoreFunction: TRASH_STORE,
  NotesRestoreNoteFunction: TRASH_STORE,
  NotesListTeamTrashFunction: TRASH_STORE,
  NotesPurgeTrashedNotesFunction: [...TRASH_STORE, 's3:DeleteObjects', 's3:ListObjectsV2', 's3:PutObject'],
  // A 405 to a valid token counts it in the rate limit (HackMD parity): the rate-limit UpdateItem only.
  NotesMethodNotAllowedFunction: ['UpdateItem'],
  // Versions and comments open the note through the notes store class (wider, as the note routes).
  NotesListVersionsFunction: NOTES_STORE,
  NotesCreateVersionFunction: NOTES_STORE,
  NotesUpdateVersionFunction: NOTES_STORE,
  NotesGetVersionFunction: NOTES_STORE,
  NotesCompareVersionsFunction: NOTES_STORE,
  NotesListNoteCommentsFunction: NOTES_STORE,
  NotesCreateNoteCommentFunction: NOTES_STORE,
  NotesGetNoteCommentFunction: NOTES_STORE,
  NotesUpdateNoteCommentFunction: NOTES_STORE,
  NotesDeleteNoteCommentFunction: NOTES_STORE,
  NotesResolveNoteCommentFunction: NOTES_STORE,
  NotesUnresolveNoteCommentFunction: NOTES_STORE,
  // Wider: the webhook store (its reads never PutItem, TransactWriteItems or UpdateItem; the ping and
  // PATCH UpdateItem, the create and delete TransactWriteItems, the ping's rate PutItem).
  NotesListWebhooksFunction: WEBHOOK_STORE,
  NotesCreateWebhookFunction: [...WEBHOOK_MARKS, SECRET],
  NotesGetWebhookFunction: WEBHOOK_STORE,
  NotesUpdateWebhookFunction: WEBHOOK_STORE,
  NotesDeleteWebhookFunction: WEBHOOK_MARKS,
  NotesPingWebhookFunction: WEBHOOK_STORE,
  NotesListWebhookDeliveriesFunction: WEBHOOK_STORE,
  NotesExportWebhookDeliveriesFunction: WEBHOOK_STORE,
  NotesGetWebhookDeliveryFunction: WEBHOOK_STORE,
  NotesListTeamWebhooksFunction: WEBHOOK_STORE,
  NotesCreateTeamWebhookFunction: [...WEBHOOK_MARKS, SECRET],
  NotesGetTeamWebhookFunction: WEBHOOK_STORE,
  NotesUpdateTeamWebhookFunction: WEBHOOK_STORE,
  NotesDeleteTeamWebhookFunction: WEBHOOK_MARKS,
  NotesPingTeamWebhookFunction: WEBHOOK_STORE,
  NotesListTeamWebhookDeliveriesFunction: WEBHOOK_STORE,
  NotesExportTeamWebhookDeliveriesFunction: WEBHOOK_STORE,
  NotesGetTeamWebhookDeliveryFunction: WEBHOOK_STORE,
  // The event router: the folder tree (folder store class, wider) and the webhooks Query, then the
  // delivery jobs onto the queue. The delivery: exactly the webhook and its log, the secret, requeues.
  NotesRouteWebhookEventsFunction: [
    'GetItem',
    'PutItem',
    'Query',
    'TransactWriteItems',
    'sqs:SendMessageBatch',
  ],
  NotesDeliverWebhooksFunction: ['GetItem', 'PutItem', 'UpdateItem', SECRET, 'sqs:SendMessage'],
  // News: reads, and the status counters' UpdateItem (a GET that really writes: every response counts).
  NewsGetCsrfTokenFunction: ['BatchGetItem', 'UpdateItem', SECRET],
  NewsListNewsFunction: NEWS_READ,
  NewsLatestNewsFunction: NEWS_READ,
  NewsGetArticleFunction: NEWS_READ,
  NewsGetArticleSummaryFunction: NEWS_READ,
  NewsGetUserFunction: NEWS_READ,
  NewsGetUserSummaryFunction: NEWS_READ,
  NewsGetTagFunction: NEWS_READ,
  NewsGetTagSummaryFunction: NEWS_READ,
  NewsGetStatusFunction: ['BatchGetItem', 'UpdateItem'],
  NewsMethodNotAllowedFunction: ['BatchGetItem', 'UpdateItem'],
  // Bank. The two transfer reads send exactly the token's and the transfer's GetItem (and the listing's
  // Query); the writes hold the transfer store's writes (TransactWriteItems) and their Idempotency-Key.
  BankCreateTransferFunction: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', SECRET],
  BankListTransfersFunction: ['GetItem', 'Query'],
  BankGetTransferFunction: ['GetItem'],
  BankReplaceTransferFunction: ['GetItem', 'Query', 'TransactWriteItems'],
  BankUpdateTransferFunction: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', SECRET],
  // Wider: the factor store class.
  BankListDevicesFunction: [...MFA, SECRET],
  BankDeleteDeviceFunction: [...MFA, SECRET],
  BankStartVerificationFunction: [...MFA, 'DeleteItem', SECRET, 'ses:SendEmail', 'sns:Publish'],
  BankVerifyFunction: [...MFA, 'DeleteItem', SECRET],
  BankCreateMfaTokenFunction: [...MFA, 'DeleteItem', SECRET],
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
      expect(sent, fn.id).toEqual([...new Set(SENDS[fn.id].map(asCommand))].sort());
    }
  });

  it('no GET function may delete or batch-write, but those listed as wider (not narrowed yet)', () => {
    const narrowed = [
      'NotesGetMeFunction',
      'NotesListTeamsFunction',
      'BankGetTransferFunction',
      'BankListTransfersFunction',
    ];
    for (const id of narrowed) {
      const fn = built.find((f) => f.id === id)!;
      const sent = commandsOf(fn).map((c) => c.operation);
      for (const write of ['PutItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'])
        expect(sent, `${id} ${write}`).not.toContain(write);
    }
  });
});
