// POST /v1/notes/{noteId}/images: multipart part "image" (PNG, JPEG, GIF, WebP) stored for the note (UploadNoteImage in the Notes interface document).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { imageUploadParser } from '#lib/notes/images/http/image-upload.ts';
import { imageUploadBody } from '#lib/notes/notes/schemas.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { imageUploader } from '#lib/notes/images/wiring.ts';

export const handler = notesOperation(
  { path: notePath, bodyParser: imageUploadParser(), body: { schema: imageUploadBody } },
  async ({ principal, path, body }) => {
    const link = await imageUploader().uploadImage(principal.userId, path.noteId, body.image.content);
    return ok({ data: { link } });
  },
);
