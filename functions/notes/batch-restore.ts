// PUT /v1/trash/batch-restore: restore several notes; 200 all restored, else 207 per note (HackMD BatchRestore).
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { allRestored } from '#lib/notes/trash/trash.ts';
import { batchRestoreBody } from '#lib/notes/trash/schemas.ts';
import { trashRestorer } from '#lib/notes/trash/wiring.ts';

export const handler = notesOperation({ body: { schema: batchRestoreBody } }, async ({ principal, body }) => {
  const outcomes = await trashRestorer().batchRestore(principal.userId, body.noteIds);
  return { status: allRestored(outcomes) ? 200 : 207, body: outcomes };
});
