// DELETE /v1/teams/{teamPath}/notes/{noteId}: a team note, its history entries and images (seed 000 DeleteTeamNote).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { teamNotePath } from '#lib/notes/schemas.ts';
import { notesWithImages as notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: teamNotePath }, async ({ principal, path }) => {
  await notes().deleteNote(principal.userId, path.noteId, path.teamPath);
  return noContent();
});
