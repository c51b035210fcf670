// POST /v1/teams/{teamPath}/folders: a folder in the team's workspace (201) (HackMD CreateTeamFolder).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderCreationBody } from '#lib/notes/folders/schemas.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { teamFolderCreator } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation(
  { path: teamPathOnly, body: { schema: folderCreationBody, optional: true } },
  async ({ principal, path, body }) => {
    const folder = await teamFolderCreator().create(principal.userId, body, path.teamPath);
    return created(presentFolder(folder));
  },
);
