// DELETE /v1/folders/{folderId}: an empty folder (409 while it holds folders or notes) (HackMD DeleteFolder).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPath } from '#lib/notes/kernel/params.ts';
import { folderRemover } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation({ path: folderPath }, async ({ principal, path }) => {
  await folderRemover().delete(principal.userId, path.folderId);
  return noContent();
});
