// Path and query parameters of the Notes routes, the schemas almost every function validates. Request
// bodies are in each feature's schemas.ts (notes, folders, trash, ...): a module builds all its
// schemas when it loads, so each function loads the bodies of its own routes only (cold start).
import * as v from 'valibot';
import { coercedNumber, object } from '../../domain/schema.ts';
import { MAX_HISTORY } from './model.ts';

const noteId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
export const teamPath = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path'),
);
export const folderId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a folder id'));

export const notePath = object({ noteId });
export const teamPathOnly = object({ teamPath });
export const teamNotePath = object({ teamPath, noteId });
export const folderPath = object({ folderId });
export const teamFolderPath = object({ teamPath, folderId });

/**
 * GetHistory `limit`: the Notes interface document types it as a double, "the maximum count of history items": any
 * number from 1 to MAX_HISTORY, rounded down (2.5 answers at most 2 items). docs/notes.md, History.
 */
export const historyQuery = object({
  limit: v.optional(
    v.pipe(
      coercedNumber(),
      v.minValue(1),
      v.maxValue(MAX_HISTORY),
      v.transform((n: number) => Math.floor(n)),
    ),
  ),
});

/** ListNotes / ListTeamNotes: `folderId` lists the notes directly in that folder. */
export const notesQuery = object({ folderId: v.optional(folderId) });
