// PUT /v1/trash/{noteId}/restore: a trashed note back, with content, images and history (HackMD RestoreNote).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { trashRestorer } from '#lib/notes/trash/wiring.ts';

export const handler = notesOperation({ path: notePath }, async ({ principal, path }) => {
  await trashRestorer().restore(principal.userId, path.noteId);
  return noContent();
});
