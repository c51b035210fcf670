// GET /v1/folders/folder-order: the caller's ordering of the folders (HackMD GetFolderOrder).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { folders } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticateCounted }, async ({ principal }) => {
  const order = await folders().getOrder(principal.userId);
  return ok(order);
});
