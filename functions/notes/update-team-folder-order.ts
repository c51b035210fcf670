// PUT /v1/teams/{teamPath}/folders/folder-order: replace the caller's ordering of the team's folders (204) (HackMD UpdateTeamFolderOrder).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderOrderBody } from '#lib/notes/folders/schemas.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { teamFolderOrderer } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation(
  { path: teamPathOnly, body: { schema: folderOrderBody } },
  async ({ principal, path, body }) => {
    await teamFolderOrderer().putOrder(principal.userId, body.order, path.teamPath);
    return noContent();
  },
);
