// The S3 client, created on first use; only the adapters that store objects import this module.
// Path-style addressing works with S3 and with every S3 emulator.
import { S3Client } from '@aws-sdk/client-s3';
import { failFast, reportUnavailable } from './fail-fast.ts';

let client: S3Client | undefined;

export const s3Client = (): S3Client =>
  (client ??= reportUnavailable(
    new S3Client({ ...failFast('s3'), forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' }),
    'S3',
  ));
