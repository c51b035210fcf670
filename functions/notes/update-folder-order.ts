// PUT /v1/folders/folder-order: replace the caller's ordering (204) (HackMD UpdateFolderOrder).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderOrderBody } from '#lib/notes/folders/schemas.ts';
import { folderOrderer } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ body: { schema: folderOrderBody } }, async ({ principal, body }) => {
  await folderOrderer().putOrder(principal.userId, body.order);
  return noContent();
});
