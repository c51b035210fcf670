// DELETE /v1/notes/{noteId}: the note, its history entries and images (seed 000 DeleteNote).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { notePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/service.ts';

export const handler = restOperation({ auth: true, path: notePath }, async ({ principal, path }) => {
  await notes.deleteNote(principal.userId, path.noteId);
  return noContent();
});
