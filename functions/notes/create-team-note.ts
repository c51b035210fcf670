// POST /v1/teams/{teamPath}/notes: a team note, body as CreateNote (seed 000 CreateTeamNote).
import { notesOperation } from '#lib/notes/http/operation.ts';
import { singleNote } from '#lib/notes/http/glue.ts';
import { createNoteBody, teamPathOnly } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly, body: { schema: createNoteBody, optional: true } }, async ({ principal, path, body }) => {
  const created = await notes().createNote(principal.userId, body, path.teamPath);
  return singleNote(principal.userId, created);
});
