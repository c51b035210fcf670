// A function bundles the AWS clients of the services it calls, and no other (issue 12): the wiring's
// getters are pure, so esbuild drops the ones a handler never calls. Built as `sam build` builds.
// The table below is what each operation does, written by hand (not read from the bundles or from
// the IAM policies that `npm run deploy:sync` derives from them), so a getter that drags a client
// into a function that never calls it fails here.
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { listFunctions } from '#infra/local/template.ts';

/** Functions that call a service besides DynamoDB; every other function calls DynamoDB only. */
const CALLS: Record<string, string[]> = {
  // Note images: the upload puts one; the trash purge deletes a purged note's images.
  NotesUploadNoteImageFunction: ['client-s3'],
  NotesPurgeTrashedNotesFunction: ['client-s3'],
  // The CSRF signing secret.
  NewsGetCsrfTokenFunction: ['client-secrets-manager'],
  // The MFA key: step-up checks of sealed mfa_tokens, sealed factors and replays.
  BankCreateTransferFunction: ['client-secrets-manager'],
  BankUpdateTransferFunction: ['client-secrets-manager'],
  BankListDevicesFunction: ['client-secrets-manager'],
  BankDeleteDeviceFunction: ['client-secrets-manager'],
  BankVerifyFunction: ['client-secrets-manager'],
  BankCreateMfaTokenFunction: ['client-secrets-manager'],
  // Codes by SMS and e-mail.
  BankStartVerificationFunction: ['client-secrets-manager', 'client-sesv2', 'client-sns'],
};
/** The 405 fallbacks answer from the request alone. */
const NO_CLIENT = new Set(['NotesMethodNotAllowedFunction', 'BankMethodNotAllowedFunction']);

async function clientsOf(entry: string): Promise<string[]> {
  const r = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'es2023',
    minify: true,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = Object.values(r.metafile.outputs);
  const clients = new Set<string>();
  for (const [path, v] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//.exec(path)?.[1];
    if (pkg && v.bytesInOutput > 0) clients.add(pkg);
  }
  return [...clients].sort();
}

const expected = (id: string) => (NO_CLIENT.has(id) ? [] : ['client-dynamodb', ...(CALLS[id] ?? [])].sort());

describe('AWS clients in function bundles', { timeout: 60_000 }, () => {
  const functions = listFunctions();

  it('names only functions of template.yaml', () => {
    const ids = new Set(functions.map((f) => f.id));
    for (const id of [...Object.keys(CALLS), ...NO_CLIENT]) expect(ids.has(id), id).toBe(true);
  });

  it.each(functions.map((f) => [f.id, f.entry]))('%s bundles the clients it calls', async (id, entry) => {
    expect(await clientsOf(entry)).toEqual(expected(id));
  });
});
