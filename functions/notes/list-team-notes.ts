// GET /v1/teams/{teamPath}/notes: the team's notes, most recently changed first (seed 000 ListTeamNotes).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/http/operation.ts';
import { presentNote } from '#lib/notes/present.ts';
import { teamPathOnly } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const list = await notes().listTeamNotes(principal.userId, path.teamPath);
  return ok(list.map(presentNote));
});
