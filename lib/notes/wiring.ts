// The Notes composition root: only what joins features. Each feature wires itself in
// lib/notes/<feature>/wiring.ts (docs/architecture.md, "Layout"), and no feature's wiring imports
// this module (features-never-import-the-root): a note's update keeps its versions and reaches its
// live document (and the live stream flushes into the note through that update), a delete moves the
// note to the trash, and the full service of the CLI holds every feature. Built on first use.
import { once } from '../domain/once.ts';
import { S3ImageStore } from './images/adapters/s3-images.ts';
import { signatureImages } from './images/adapters/signature-images.ts';
import { restToLive } from './live/notes-bridge.ts';
import { liveBridge, liveChangesFor } from './live/wiring.ts';
import { DynamoNotesStore, getNote, recordVisit, saveNote } from './notes/adapters/dynamo-notes.ts';
import { build, narrow } from './notes/wiring.ts';
import { fullVersions, versionKeeper } from './revisions/wiring.ts';
import { toTrash } from './trash/wiring.ts';

/** DeleteNote, DeleteTeamNote: the note and its visitors (getNote), moved to the trash. */
export const noteDeleter = /* @__PURE__ */ once(() => build(narrow({ getNote }), { bin: toTrash }));

/**
 * UpdateNote, UpdateTeamNote: the note (getNote), saved (saveNote) with system versions kept on
 * content changes, or, when nothing changes, the read recorded in the editor's history (recordVisit).
 * A content change reaches the note's live document and its connections (restToLive: the document's
 * Query, its updates' PutItem, the connections' Query, PostToConnection).
 */
export const noteUpdater = /* @__PURE__ */ once(() =>
  build(narrow({ getNote, recordVisit, saveNote }), {
    history: versionKeeper(),
    contentListener: restToLive(liveBridge),
  }),
);

/**
 * The stream function: updates flushed into the note (with versions: noteUpdater's store) and
 * compacted; connections rechecked after access changes.
 */
export const liveChanges = /* @__PURE__ */ once(() => liveChangesFor(noteUpdater));

/**
 * Every method, images, trash and versions: the admin CLI, the seed and the local runner's banner.
 * No function uses it (its bundle would hold every write).
 */
export const fullNotes = /* @__PURE__ */ once(() =>
  build(new DynamoNotesStore(), {
    images: new S3ImageStore(),
    imageTypes: signatureImages,
    bin: toTrash,
    history: fullVersions(),
  }),
);
