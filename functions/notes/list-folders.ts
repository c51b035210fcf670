// GET /v1/folders: every folder of the caller's workspace, oldest first (HackMD ListFolders).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { folderReader } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const list = await folderReader().list(principal.userId);
  return ok(list.map(presentFolder));
});
