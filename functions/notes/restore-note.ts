// PUT /v1/trash/{noteId}/restore: a trashed note back, with content, images and history (HackMD RestoreNote).
import { noContent, restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { notePath } from '#lib/notes/schemas.ts';
import { trash } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, path: notePath },
  async ({ principal, path }) => {
    await trash().restore(principal.userId, path.noteId);
    return noContent();
  },
);
