// GET /v1/folders/folder-order: the caller's ordering of the folders (HackMD GetFolderOrder).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderReader } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const order = await folderReader().getOrder(principal.userId);
  return ok(order);
});
