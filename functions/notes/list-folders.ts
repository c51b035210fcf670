// GET /v1/folders: every folder of the caller's workspace, oldest first (HackMD ListFolders).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { presentFolder } from '#lib/notes/folders.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticateCounted }, async ({ principal }) => {
  const list = await folders().list(principal.userId);
  return ok(list.map(presentFolder));
});
