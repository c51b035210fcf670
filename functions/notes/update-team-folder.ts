// PATCH /v1/teams/{teamPath}/folders/{folderId}: rename, restyle or move a folder (202) (HackMD UpdateTeamFolder).
import { accepted } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderChanges } from '#lib/notes/folders/schemas.ts';
import { teamFolderPath } from '#lib/notes/kernel/params.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { teamFolderUpdater } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation(
  { path: teamFolderPath, body: { schema: folderChanges } },
  async ({ principal, path, body }) => {
    const folder = await teamFolderUpdater().update(principal.userId, path.folderId, body, path.teamPath);
    return accepted(presentFolder(folder));
  },
);
