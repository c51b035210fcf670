// Path and query parameters of the Notes routes, the schemas almost every function validates. Request
// bodies are in schemas.ts (notes), folder-schemas.ts and trash-schemas.ts: a module builds all its
// schemas when it loads, so each function loads the bodies of its own routes only (cold start).
import * as z from 'zod/mini';
import { MAX_HISTORY } from './model.ts';

const noteId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
const teamPath = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path'));
const folderId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a folder id'));

export const notePath = z.object({ noteId });
export const teamPathOnly = z.object({ teamPath });
export const teamNotePath = z.object({ teamPath, noteId });
export const folderPath = z.object({ folderId });
export const teamFolderPath = z.object({ teamPath, folderId });

/**
 * GetHistory `limit`: the seed types it as a double, "the maximum count of history items": any
 * number from 1 to MAX_HISTORY, rounded down (2.5 answers at most 2 items). docs/notes.md, History.
 */
export const historyQuery = z.object({
  limit: z.optional(
    z.pipe(
      z.coerce.number().check(z.gte(1), z.lte(MAX_HISTORY)),
      z.transform((n: number) => Math.floor(n)),
    ),
  ),
});

/** ListNotes / ListTeamNotes: `folderId` lists the notes directly in that folder. */
export const notesQuery = z.object({ folderId: z.optional(folderId) });
