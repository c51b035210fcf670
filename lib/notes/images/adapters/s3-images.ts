// S3 adapter of the note image store: one object per image under notes/<noteId>/, in the
// private bucket; readable publicly only through config.imageBaseUrl (CloudFront; locally the runner).
// One function per method, so the trash purge bundles (and may send) no PutObject.
import { randomBytes } from 'node:crypto';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { config } from '../../../config.ts';
import { s3Client } from '../../../data/s3.ts';
import type { ImageStore } from '../../kernel/ports.ts';

const prefixOf = (noteId: string) => `notes/${noteId}/`;

/**
 * Every key putImage writes, and nothing else: `notes/<note id>/<random name>.<extension>`, URL-safe
 * characters only (no `.` segment, no `%`, no backslash, no other prefix). What the image path serves.
 */
export const IMAGE_KEY = /^notes\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}\.[a-z0-9]{1,8}$/;

const bucket = (): string => config.bucketName;

/** UploadNoteImage: one PutObject. */
export async function putImage(
  noteId: string,
  bytes: Buffer,
  type: { mime: string; ext: string },
): Promise<string> {
  const key = `${prefixOf(noteId)}${randomBytes(12).toString('base64url')}.${type.ext}`;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: bytes,
      ContentType: type.mime,
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
  return key;
}

/** The trash purge: every image of the note (ListObjectsV2, DeleteObjects, page by page). */
export async function deleteImages(noteId: string): Promise<void> {
  let ContinuationToken: string | undefined;
  do {
    const page = await s3Client().send(
      new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefixOf(noteId), ContinuationToken }),
    );
    const objects = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (objects.length)
      await s3Client().send(
        new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: objects, Quiet: true } }),
      );
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
}

/** Both, for the services that take an ImageStore; functions wire only what they call. */
export class S3ImageStore implements ImageStore {
  put = putImage;
  deleteAll = deleteImages;
}
