// DELETE /v1/teams/{teamPath}/folders/{folderId}: an empty folder (409 while it holds folders or notes) (HackMD DeleteTeamFolder).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamFolderPath } from '#lib/notes/kernel/params.ts';
import { teamFolderRemover } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: teamFolderPath }, async ({ principal, path }) => {
  await teamFolderRemover().delete(principal.userId, path.folderId, path.teamPath);
  return noContent();
});
