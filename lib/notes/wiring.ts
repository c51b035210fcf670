// The one place the Notes adapters are chosen and handed to its domain; built on first use.
// Only UploadNoteImage reaches the S3 image store and image detection (and bundles the S3
// client and the image signatures); only the trash purge also reaches S3, to delete images. A
// function bundles what its getter reaches, and no more (cold start).
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { systemIds } from '../domain/ids.ts';
import { IdempotencyKeys } from '../domain/idempotency.ts';
import { once } from '../domain/once.ts';
import { directory } from '../identity/wiring.ts';
import type { Bin, ImageStore, ImageTypes } from './ports.ts';
import { DynamoNotesStore } from './adapters/dynamo-notes.ts';
import { S3ImageStore } from './adapters/s3-images.ts';
import { signatureImages } from './adapters/signature-images.ts';
import { DynamoFolderStore } from './adapters/dynamo-folders.ts';
import { DynamoTrashStore } from './adapters/dynamo-trash.ts';
import { FolderService } from './folders.ts';
import { NotesService } from './service.ts';
import { TrashService } from './trash.ts';

const build = (images: ImageStore, imageTypes: ImageTypes, bin: Bin) =>
  new NotesService({
    store: new DynamoNotesStore(),
    images,
    imageTypes,
    directory: directory(),
    clock: systemClock,
    ids: systemIds,
    imageUrl: (key) => `${config.imageBaseUrl}/${key}`,
    bin,
  });

/** No image store nor detection: for operations that never touch images. */
const noImages: ImageStore = {
  put: () => Promise.reject(new Error('this function has no image store')),
  deleteAll: () => Promise.reject(new Error('this function has no image store')),
};
const noImageTypes: ImageTypes = {
  detect: () => Promise.reject(new Error('this function has no image detection')),
};

const noBin: Bin = {
  moveToTrash: () => Promise.reject(new Error('this function has no trash store')),
};

export const notes = /* @__PURE__ */ once(() => build(noImages, noImageTypes, noBin));

/** The same service with the S3 image store and image detection (UploadNoteImage). */
export const notesWithImages = /* @__PURE__ */ once(() => build(new S3ImageStore(), signatureImages, noBin));

/** The same service with the trash, where deleted notes go (DeleteNote, DeleteTeamNote). */
export const notesWithBin = /* @__PURE__ */ once(() =>
  build(noImages, noImageTypes, {
    moveToTrash: (stored, userId) => trash().moveToTrash(stored, userId),
  }),
);

export const folders = /* @__PURE__ */ once(
  () => new FolderService(new DynamoFolderStore(), directory(), systemClock, systemIds),
);

const trashService = (images: ImageStore) =>
  new TrashService(new DynamoTrashStore(), images, directory(), () => config.trashRetentionDays, systemClock);

/**
 * The trash as its routes and DeleteNote see it: listing, restoring and moving a note there never
 * touch images (no S3 in those bundles).
 */
export const trash = /* @__PURE__ */ once(() => trashService(noImages));

/** The trash purge (stream function, admin CLI): deletes a purged note's images from S3. */
export const trashPurge = /* @__PURE__ */ once(() => trashService(new S3ImageStore()));

export { expiredNotesOf } from './adapters/dynamo-trash.ts';

/** Idempotency-Keys of Notes creates (lib/domain/idempotency.ts), kept in the table. */
export const notesIdempotency = /* @__PURE__ */ once(
  () => new IdempotencyKeys(new DynamoNotesStore(), systemClock),
);
