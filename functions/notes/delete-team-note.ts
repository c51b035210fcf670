// DELETE /v1/teams/{teamPath}/notes/{noteId}: a team note, its history entries and images (seed 000 DeleteTeamNote).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { teamNotePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/service.ts';

export const handler = restOperation({ auth: true, path: teamNotePath }, async ({ principal, path }) => {
  await notes.deleteNote(principal.userId, path.noteId, path.teamPath);
  return noContent();
});
