// GET /v1/folders/{folderId}: one folder of the caller's workspace (HackMD GetFolder).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPath } from '#lib/notes/kernel/params.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { folderLookup } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: folderPath }, async ({ principal, path }) => {
  const folder = await folderLookup().get(principal.userId, path.folderId);
  return ok(presentFolder(folder));
});
