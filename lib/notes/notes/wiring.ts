// The notes feature's wiring: the Notes service, wired per operation with only the store methods
// that operation calls (so its bundle and role hold no others); built on first use.
import { config } from '../../config.ts';
import { systemClock } from '../../domain/clock.ts';
import { systemIds } from '../../domain/ids.ts';
import { IdempotencyKeys } from '../../domain/idempotency.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { directory } from '../../identity/wiring.ts';
import type {
  Bin,
  ContentHistory,
  ContentListener,
  ImageStore,
  ImageTypes,
  NotesStore,
} from '../kernel/ports.ts';
import { noImages } from '../kernel/wiring.ts';
import {
  createNote,
  getNote,
  history,
  listNotes,
  recordVisit,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
} from './adapters/dynamo-notes.ts';
import { NotesService } from './service.ts';

/** The Notes service on this store (lib/domain/only.ts narrows it to the methods an operation calls). */
export const build = (
  store: NotesStore,
  images: ImageStore,
  imageTypes: ImageTypes,
  bin: Bin,
  contentHistory?: ContentHistory,
  contentListener?: ContentListener,
) =>
  new NotesService({
    store,
    images,
    imageTypes,
    directory: directory(),
    clock: systemClock,
    ids: systemIds,
    imageUrl: (key) => `${config.imageBaseUrl}/${key}`,
    bin,
    history: contentHistory,
    contentListener,
  });
/** The notes store with only these methods: any other one rejects, naming itself. */
export const narrow = (methods: Partial<NotesStore>) => only<NotesStore>('notes', methods);

/** No image detection: for operations that never touch images. */
export const noImageTypes: ImageTypes = {
  detect: () => Promise.reject(new Error('this function has no image detection')),
};
/** No trash: for operations that never move a note there. */
export const noBin: Bin = {
  moveToTrash: () => Promise.reject(new Error('this function has no trash store')),
};
/** The Notes service with only these store methods, and no images, trash, versions nor live editing. */
export const notesWith = (methods: Partial<NotesStore>) =>
  build(narrow(methods), noImages, noImageTypes, noBin);

/** ListNotes, ListTeamNotes: one Query of the owner's notes. */
export const noteLister = /* @__PURE__ */ once(() => notesWith({ listNotes }));
/** GetHistory: one Query of the caller's history entries. */
export const historyReader = /* @__PURE__ */ once(() => notesWith({ history }));
/** CreateNote, CreateTeamNote: the create transaction (the Idempotency-Key side: notesIdempotency). */
export const noteCreator = /* @__PURE__ */ once(() => notesWith({ createNote }));
/**
 * GetNote, GetTeamNote: the note's partition (Query), then the read recorded in the caller's history
 * (recordVisit: a PutItem of the history entry, then an UpdateItem bumping the visit counter). A
 * GET that really writes: GET /v1/history lists what the caller read.
 */
export const noteReader = /* @__PURE__ */ once(() => notesWith({ getNote, recordVisit }));

/** Idempotency-Keys of Notes creates (lib/domain/idempotency.ts), kept in the table. */
export const notesIdempotency = /* @__PURE__ */ once(
  () => new IdempotencyKeys({ reserveIdempotencyKey, releaseIdempotencyKey }, systemClock),
);
