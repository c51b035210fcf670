// PUT /v1/folders/folder-order: replace the caller's ordering (204) (HackMD UpdateFolderOrder).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { folderOrderBody } from '#lib/notes/folder-schemas.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, body: { schema: folderOrderBody } },
  async ({ principal, body }) => {
    await folders().putOrder(principal.userId, body.order);
    return noContent();
  },
);
