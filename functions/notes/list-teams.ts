// GET /v1/teams: the teams the caller belongs to (ListTeams in the Notes interface document).
import { teamsOfUser } from '#lib/identity/wiring.ts';
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentTeam } from '#lib/notes/kernel/present.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const teams = await teamsOfUser().listTeams(principal.userId);
  return ok(teams.map(presentTeam));
});
