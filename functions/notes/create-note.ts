// POST /v1/notes: a personal note from a JSON string (content), a creation object or nothing (CreateNote in the Notes interface document);
// an optional Idempotency-Key makes a retry safe.
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { createTarget, idempotentCreate } from '#lib/notes/notes/http.ts';
import { createNoteBody } from '#lib/notes/notes/schemas.ts';
import { noteCreator } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation({ body: { schema: createNoteBody, optional: true } }, async (req) =>
  idempotentCreate(req, await folderPaths().pathsFor(req.principal.userId, [createTarget(req)]), (complete) =>
    noteCreator().createNote(req.principal.userId, req.body, undefined, complete),
  ),
);
