// GET /v1/teams/{teamPath}/notes/{noteId}: a note of the team; conditional; recorded in history (seed 000 GetTeamNote).
import { restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { conditionalGet } from '#lib/notes/http/glue.ts';
import { teamNotePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: teamNotePath }, async ({ principal, path, headers }) => {
  const note = await notes().getNote(principal.userId, path.noteId, path.teamPath);
  return conditionalGet(headers, note);
});
