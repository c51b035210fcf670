// A large live document's compacted state, in the images bucket under live/ (private: the CDN
// serves notes/ only). One object per revision, so a reader of the previous HEAD still finds its own.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { config } from '../../../config.ts';
import { s3Client } from '../../../data/s3.ts';

export async function putState(key: string, state: Uint8Array): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      Body: state,
      ContentType: 'application/octet-stream',
    }),
  );
}

export async function getState(key: string): Promise<Uint8Array> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
  return out.Body!.transformToByteArray();
}

export async function deleteState(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: key }));
}
