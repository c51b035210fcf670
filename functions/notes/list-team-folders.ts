// GET /v1/teams/{teamPath}/folders: every folder of the team's workspace, oldest first (HackMD ListTeamFolders).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/http/operation.ts';
import { presentFolder } from '#lib/notes/folders.ts';
import { teamPathOnly } from '#lib/notes/params.ts';
import { teamFolderReader } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const list = await teamFolderReader().list(principal.userId, path.teamPath);
  return ok(list.map(presentFolder));
});
