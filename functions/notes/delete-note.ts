// DELETE /v1/notes/{noteId}: the note, its history entries and images (DeleteNote in the Notes interface document).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { noteDeleter } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ path: notePath }, async ({ principal, path }) => {
  await noteDeleter().deleteNote(principal.userId, path.noteId);
  return noContent();
});
