// GET /v1/notes/{noteId}: a note the caller may read, by id or shortId; conditional; recorded in history (GetNote in the Notes interface document).
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { notModifiedNote, singleNote } from '#lib/notes/notes/http.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { noteReader } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation({ path: notePath }, async ({ principal, path, headers }) => {
  const note = await noteReader().getNote(principal.userId, path.noteId);
  return (
    notModifiedNote(headers, note) ??
    singleNote(note, await folderPaths().pathsFor(principal.userId, [note.note]))
  );
});
