// The notes feature's wiring: the Notes service, wired per operation with only the store methods
// that operation calls (so its bundle and role hold no others); built on first use.
import { config } from '../../config.ts';
import { systemClock } from '../../domain/clock.ts';
import { systemIds } from '../../domain/ids.ts';
import { IdempotencyKeys } from '../../domain/idempotency.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { directory } from '../../identity/wiring.ts';
import type { NotesStore } from '../kernel/ports.ts';
import {
  createNote,
  getNote,
  history,
  listNotes,
  recordVisit,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
} from './adapters/dynamo-notes.ts';
import { type NotesDependencies, NotesService } from './service.ts';

/**
 * The Notes service on this store (lib/domain/only.ts narrows it to the methods an operation calls);
 * what `more` leaves out (images, image detection, the trash, versions, live editing) is unwired.
 */
export const build = (
  store: NotesStore,
  more: Pick<NotesDependencies, 'images' | 'imageTypes' | 'bin' | 'history' | 'contentListener'> = {},
) =>
  new NotesService({
    store,
    directory: directory(),
    clock: systemClock,
    ids: systemIds,
    imageUrl: (key) => `${config.imageBaseUrl}/${key}`,
    ...more,
  });
/** The notes store with only these methods: any other one rejects, naming itself. */
export const narrow = (methods: Partial<NotesStore>) => only<NotesStore>('notes', methods);

/** The Notes service with only these store methods, and no images, trash, versions nor live editing. */
export const notesWith = (methods: Partial<NotesStore>) => build(narrow(methods));

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
