// The images feature's wiring: only UploadNoteImage reaches the S3 image store and image detection
// (and bundles the S3 client and the image signatures); built on first use.
import { once } from '../../domain/once.ts';
import { getNote } from '../notes/adapters/dynamo-notes.ts';
import type { ImageStore } from '../kernel/ports.ts';
import { only } from '../../domain/only.ts';
import { build, narrow } from '../notes/wiring.ts';
import { putImage } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';

/** UploadNoteImage: the note (getNote), the image put to S3 (PutObject only) and image detection. */
export const imageUploader = /* @__PURE__ */ once(() =>
  build(narrow({ getNote }), {
    images: only<ImageStore>('images', { put: putImage }),
    imageTypes: signatureImages,
  }),
);
