// GET /v1/teams/{teamPath}/folders/{folderId}: one folder of the team's workspace (HackMD GetTeamFolder).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamFolderPath } from '#lib/notes/kernel/params.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { teamFolderLookup } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: teamFolderPath }, async ({ principal, path }) => {
  const folder = await teamFolderLookup().get(principal.userId, path.folderId, path.teamPath);
  return ok(presentFolder(folder));
});
