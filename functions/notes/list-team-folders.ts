// GET /v1/teams/{teamPath}/folders: every folder of the team's workspace, oldest first (HackMD ListTeamFolders).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { teamFolderReader } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const list = await teamFolderReader().list(principal.userId, path.teamPath);
  return ok(list.map(presentFolder));
});
