// GET /v1/teams/{teamPath}/folders/folder-order: the caller's ordering of the team's folders of the folders (HackMD GetTeamFolderOrder).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { teamPathOnly } from '#lib/notes/schemas.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, path: teamPathOnly },
  async ({ principal, path }) => {
    const order = await folders().getOrder(principal.userId, path.teamPath);
    return ok(order);
  },
);
