// GET /v1/folders/{folderId}: one folder of the caller's workspace (HackMD GetFolder).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { folderPath } from '#lib/notes/folder-schemas.ts';
import { presentFolder } from '#lib/notes/folders.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, path: folderPath },
  async ({ principal, path }) => {
    const folder = await folders().get(principal.userId, path.folderId);
    return ok(presentFolder(folder));
  },
);
