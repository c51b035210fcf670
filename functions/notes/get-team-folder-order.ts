// GET /v1/teams/{teamPath}/folders/folder-order: the caller's ordering of the team's folders of the folders (HackMD GetTeamFolderOrder).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { teamFolderReader } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const order = await teamFolderReader().getOrder(principal.userId, path.teamPath);
  return ok(order);
});
