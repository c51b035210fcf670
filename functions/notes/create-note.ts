// POST /v1/notes: a personal note from a JSON string (content), a creation object or nothing (seed 000 CreateNote).
import { notesOperation } from '#lib/notes/http/operation.ts';
import { singleNote } from '#lib/notes/http/glue.ts';
import { createNoteBody } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/wiring.ts';

export const handler = notesOperation({ body: { schema: createNoteBody, optional: true } }, async ({ principal, body }) => {
  const created = await notes().createNote(principal.userId, body);
  return singleNote(principal.userId, created);
});
