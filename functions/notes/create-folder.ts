// POST /v1/folders: a folder in the caller's workspace (201) (HackMD CreateFolder).
import { created, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { folderCreationBody } from '#lib/notes/folder-schemas.ts';
import { presentFolder } from '#lib/notes/folders.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, body: { schema: folderCreationBody, optional: true } },
  async ({ principal, body }) => {
    const folder = await folders().create(principal.userId, body);
    return created(presentFolder(folder));
  },
);
