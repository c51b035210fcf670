// GET /v1/teams/{teamPath}/notes/{noteId}: a note of the team; conditional; recorded in history (GetTeamNote in the Notes interface document).
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { notModifiedNote, singleNote } from '#lib/notes/notes/http.ts';
import { teamNotePath } from '#lib/notes/kernel/params.ts';
import { noteReader } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation({ path: teamNotePath }, async ({ principal, path, headers }) => {
  const note = await noteReader().getNote(principal.userId, path.noteId, path.teamPath);
  return (
    notModifiedNote(headers, note) ??
    singleNote(note, await folderPaths().pathsFor(principal.userId, [note.note]))
  );
});
