// The images feature's wiring: only UploadNoteImage reaches the S3 image store and image detection
// (and bundles the S3 client and the image signatures); built on first use.
import { once } from '../../domain/once.ts';
import { noImages } from '../kernel/wiring.ts';
import { getNote } from '../notes/adapters/dynamo-notes.ts';
import { build, narrow, noBin } from '../notes/wiring.ts';
import { putImage } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';

/** UploadNoteImage: the note (getNote), the image put to S3 (PutObject only) and image detection. */
export const imageUploader = /* @__PURE__ */ once(() =>
  build(narrow({ getNote }), { ...noImages, put: putImage }, signatureImages, noBin),
);
