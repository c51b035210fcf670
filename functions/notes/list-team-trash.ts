// GET /v1/teams/{teamPath}/trash: the team's trashed notes, for the team's admin (HackMD ListTeamTrash).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { presentTrashNote } from '#lib/notes/trash/trash.ts';
import { teamTrashLister } from '#lib/notes/trash/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const { team, trashed } = await teamTrashLister().listTeam(principal.userId, path.teamPath);
  return ok(trashed.map((t) => presentTrashNote(t, team)));
});
