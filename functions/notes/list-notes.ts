// GET /v1/notes: the caller's own notes, most recently changed first (seed 000 ListNotes).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { presentNote } from '#lib/notes/present.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = restOperation({ auth: authenticate }, async ({ principal }) => {
  const list = await notes().listNotes(principal.userId);
  return ok(list.map(presentNote));
});
