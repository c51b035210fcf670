// GET /v1/trash: the caller's trashed personal notes, most recently deleted first (HackMD ListPersonalTrash).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentTrashNote } from '#lib/notes/trash/trash.ts';
import { trashLister } from '#lib/notes/trash/wiring.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const trashed = await trashLister().listPersonal(principal.userId);
  return ok(trashed.map((t) => presentTrashNote(t)));
});
