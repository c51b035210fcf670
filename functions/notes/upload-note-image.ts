// POST /v1/notes/{noteId}/images: multipart part "image" (PNG, JPEG, GIF, WebP) stored for the note (seed 000 UploadNoteImage).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { imageUploadParser } from '#lib/notes/http/glue.ts';
import { imageUploadBody, notePath } from '#lib/notes/schemas.ts';
import { notesWithImages as notes } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticate, path: notePath, bodyParser: imageUploadParser(), body: { schema: imageUploadBody } },
  async ({ principal, path, body }) => {
    const link = await notes().uploadImage(principal.userId, path.noteId, body.image.content);
    return ok({ data: { link } });
  },
);
