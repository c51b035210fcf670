// GET /v1/teams/{teamPath}/notes: the team's notes, most recently changed first (seed 000 ListTeamNotes).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { presentNote } from '#lib/notes/present.ts';
import { teamPathOnly } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: teamPathOnly }, async ({ principal, path }) => {
  const list = await notes().listTeamNotes(principal.userId, path.teamPath);
  return ok(list.map(presentNote));
});
