// A function bundles the AWS clients of the services it calls, and no other (issue 12): the wiring's
// getters are pure, so esbuild drops the ones a handler never calls. Each function is built as
// `sam build` builds it, by the cold-start bench's own build (infra/bench/coldstart.ts). The table
// below is what each operation does, written by hand (not read from the bundles or from the IAM
// policies that `npm run deploy:sync` derives from them), so a getter that drags a client into a
// function that never calls it fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '#infra/bench/coldstart.ts';
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
