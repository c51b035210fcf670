// PATCH /v1/notes/{noteId}: change the fields sent; If-Match honoured (seed 000 UpdateNote).
import { restOperation } from '#lib/http/rest.ts';
import { singleNote } from '#lib/notes/http.ts';
import { noteChanges, notePath } from '#lib/notes/schemas.ts';
import { notes } from '#lib/notes/service.ts';

export const handler = restOperation({ auth: true, path: notePath, body: { schema: noteChanges } }, async ({ principal, path, body, headers }) => {
  const updated = await notes.updateNote(principal.userId, path.noteId, body, { ifMatch: headers['if-match'] });
  return singleNote(principal.userId, updated);
});
