// GET /v1/trash: the caller's trashed personal notes, most recently deleted first (HackMD ListPersonalTrash).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { presentTrashNote } from '#lib/notes/trash.ts';
import { trash } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticateCounted }, async ({ principal }) => {
  const trashed = await trash().listPersonal(principal.userId);
  return ok(trashed.map((t) => presentTrashNote(t)));
});
