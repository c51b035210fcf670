// A function bundles the AWS clients of the services it calls, and no other (issue 12): the wiring's
// getters are pure, so esbuild drops the ones a handler never calls. Built as `sam build` builds.
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

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
  const used = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([path]) => path);
  return ['client-dynamodb', 'client-s3', 'client-sns', 'client-sesv2'].filter((c) =>
    used.some((p) => p.includes(`/${c}/`)),
  );
}

describe('AWS clients in function bundles', { timeout: 30_000 }, () => {
  it('a transfer route carries DynamoDB only', async () => {
    expect(await clientsOf('functions/bank/create-transfer.ts')).toEqual(['client-dynamodb']);
  });

  it('the route that sends codes carries DynamoDB, SNS and SES', async () => {
    expect(await clientsOf('functions/bank/start-verification.ts')).toEqual([
      'client-dynamodb',
      'client-sns',
      'client-sesv2',
    ]);
  });

  it('reading a note carries no S3', async () => {
    expect(await clientsOf('functions/notes/get-note.ts')).toEqual(['client-dynamodb']);
  });

  it('uploading an image carries S3', async () => {
    expect(await clientsOf('functions/notes/upload-note-image.ts')).toEqual(['client-dynamodb', 'client-s3']);
  });
});
