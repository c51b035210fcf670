// PATCH /v1/notes/{noteId}/versions: renames a named version given as base version:{id} (HackMD UpdateVersion).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { updateVersionBody } from '#lib/notes/revisions/schemas.ts';
import { presentVersion } from '#lib/notes/revisions/versions.ts';
import { versionRenamer } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, body: { schema: updateVersionBody } },
  async ({ principal, path, body }) => {
    const version = await versionRenamer().update(principal.userId, path.noteId, body);
    return ok(presentVersion(version));
  },
);
