// The revisions feature's wiring: versions and comments, each wired per operation with only the
// store methods that operation calls; built on first use.
import { systemClock } from '../../domain/clock.ts';
import { Unauthenticated } from '../../domain/errors.ts';
import { systemIds } from '../../domain/ids.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { directory } from '../../identity/wiring.ts';
import { getNote } from '../notes/adapters/dynamo-notes.ts';
import { notesWith } from '../notes/wiring.ts';
import {
  anchorBase,
  anchorRuns,
  createComment,
  getComment,
  keepAnchorRuns,
  listComments,
  removeComments,
  saveComments,
} from './adapters/dynamo-comments.ts';
import {
  coalesceVersion,
  createVersion,
  dynamoVersionStore,
  getVersion,
  latestVersion,
  listVersions,
  materializeVersion,
  nameVersion,
  renameVersion,
  versionContent,
} from './adapters/dynamo-versions.ts';
import { type CommentStore, CommentService } from './comments.ts';
import { type NoteOpener, type UserLookup, VersionService, type VersionStore } from './versions.ts';

/** Versions and comments open the note with getNote only. */
const noteOpener = /* @__PURE__ */ once(() => notesWith({ getNote }));
const openNote: NoteOpener = (userId, ref) => noteOpener().openNote(userId, ref);
const userOf: UserLookup = async (userId) => {
  const me = await directory().getUserWithTeams(userId);
  if (!me) throw new Unauthenticated('The token belongs to a user that no longer exists');
  return me.user;
};

const versionService = (store: VersionStore) => new VersionService(store, openNote, userOf, systemClock);
/** The version store with only these methods: any other one rejects, naming itself. */
const versionsWith = (methods: Partial<VersionStore>) =>
  versionService(only<VersionStore>('versions', methods));

/** Every version method (the full service, fullNotes()); no function uses it. */
export const fullVersions = /* @__PURE__ */ once(() => versionService(dynamoVersionStore()));
/** ListVersions: one Query of the note's versions. */
export const versionLister = /* @__PURE__ */ once(() => versionsWith({ list: listVersions }));
/** GetVersion, CompareVersions: a version and its content (GetItem each). */
export const versionReader = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, content: versionContent }),
);
/** CreateVersion: names a version in place or creates a named one (TransactWriteItems). */
export const versionCreator = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, latest: latestVersion, name: nameVersion, create: createVersion }),
);
/** UpdateVersion: renames a named version (UpdateItem). */
export const versionRenamer = /* @__PURE__ */ once(() =>
  versionsWith({ get: getVersion, rename: renameVersion }),
);
/** Told of every content change by noteUpdater() (lib/notes/wiring.ts): keeps the system versions. */
export const versionKeeper = /* @__PURE__ */ once(() =>
  versionsWith({
    latest: latestVersion,
    coalesce: coalesceVersion,
    create: createVersion,
    materialize: materializeVersion,
  }),
);

/** Note comments (HackMD Comments and our comment-writing extension), with only these store methods. */
const commentsWith = (methods: Partial<CommentStore>) =>
  new CommentService(only<CommentStore>('comments', methods), openNote, userOf, systemClock, systemIds);
/** Following anchors: the stored mapping between two contents, else the base content to diff. */
const anchoring = { base: anchorBase, runs: anchorRuns, keepRuns: keepAnchorRuns };
/** ListNoteComments: one Query of the note's comments (and the contents their anchors were written on). */
export const commentLister = /* @__PURE__ */ once(() => commentsWith({ list: listComments, ...anchoring }));
/** GetNoteComment: the comment, its thread head and its anchor's content (GetItem). */
export const commentReader = /* @__PURE__ */ once(() => commentsWith({ get: getComment, ...anchoring }));
/** CreateNoteComment: the thread head of a reply, then the create transaction. */
export const commentCreator = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, create: createComment }),
);
/** UpdateNoteComment, ResolveNoteComment, UnresolveNoteComment: comments read, then saved in a transaction. */
export const commentUpdater = /* @__PURE__ */ once(() =>
  commentsWith({ get: getComment, save: saveComments, ...anchoring }),
);
/** DeleteNoteComment: the note's comments (Query), the thread or reply removed in a transaction. */
export const commentRemover = /* @__PURE__ */ once(() =>
  commentsWith({ list: listComments, remove: removeComments }),
);
