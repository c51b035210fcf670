// PATCH /v1/teams/{teamPath}/notes/{noteId}: change the fields sent; If-Match honoured (seed 000 UpdateTeamNote).
import { restOperation } from '#lib/http/rest.ts';
import { singleNote } from '#lib/notes/http.ts';
import { noteChanges, teamNotePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/service.ts';

export const handler = restOperation({ auth: true, path: teamNotePath, body: { schema: noteChanges } }, async ({ principal, path, body, headers }) => {
  const updated = await notes.updateNote(principal.userId, path.noteId, body, { teamPath: path.teamPath, ifMatch: headers['if-match'] });
  return singleNote(principal.userId, updated);
});
