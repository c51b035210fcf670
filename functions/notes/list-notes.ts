// GET /v1/notes: the caller's own notes, most recently changed first (seed 000 ListNotes).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/http/operation.ts';
import { presentNote } from '#lib/notes/present.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const list = await notes().listNotes(principal.userId);
  return ok(list.map(presentNote));
});
