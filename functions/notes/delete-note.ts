// DELETE /v1/notes/{noteId}: the note, its history entries and images (seed 000 DeleteNote).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { notePath } from '#lib/notes/schemas.ts';
import { notesWithImages as notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: notePath }, async ({ principal, path }) => {
  await notes().deleteNote(principal.userId, path.noteId);
  return noContent();
});
