// DELETE /v1/folders/{folderId}: an empty folder (409 while it holds folders or notes) (HackMD DeleteFolder).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { folderPath } from '#lib/notes/folder-schemas.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, path: folderPath },
  async ({ principal, path }) => {
    await folders().delete(principal.userId, path.folderId);
    return noContent();
  },
);
