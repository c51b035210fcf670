// GET /v1/notes/{noteId}: a note the caller may read, by id or shortId; conditional; recorded in history (seed 000 GetNote).
import { restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { conditionalGet } from '#lib/notes/http/glue.ts';
import { notePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: notePath }, async ({ principal, path, headers }) => {
  const note = await notes().getNote(principal.userId, path.noteId);
  return conditionalGet(headers, note);
});
