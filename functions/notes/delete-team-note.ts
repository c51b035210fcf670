// DELETE /v1/teams/{teamPath}/notes/{noteId}: a team note, its history entries and images (DeleteTeamNote in the Notes interface document).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamNotePath } from '#lib/notes/kernel/params.ts';
import { noteDeleter } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ path: teamNotePath }, async ({ principal, path }) => {
  await noteDeleter().deleteNote(principal.userId, path.noteId, path.teamPath);
  return noContent();
});
