// GET /v1/teams/{teamPath}/notes/{noteId}: a note of the team; conditional; recorded in history (seed 000 GetTeamNote).
import { restOperation } from '#lib/http/rest.ts';
import { conditionalGet } from '#lib/notes/http.ts';
import { teamNotePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/service.ts';

export const handler = restOperation({ auth: true, path: teamNotePath }, async ({ principal, path, headers }) => {
  const note = await notes.getNote(principal.userId, path.noteId, path.teamPath);
  return conditionalGet(principal.userId, headers, note);
});
