// GET /v1/teams: the teams the caller belongs to (seed 000 ListTeams).
import { identity } from '#lib/identity/wiring.ts';
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { presentTeam } from '#lib/notes/present.ts';

export const handler = restOperation({ auth: authenticate }, async ({ principal }) => {
  const teams = await identity().listTeams(principal.userId);
  return ok(teams.map(presentTeam));
});
