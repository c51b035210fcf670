// POST /v1/notes/{noteId}/versions: names the live content (or a system version) as a version (HackMD CreateVersion).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { createVersionBody } from '#lib/notes/revisions/schemas.ts';
import { presentVersion } from '#lib/notes/revisions/versions.ts';
import { versionCreator } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, body: { schema: createVersionBody } },
  async ({ principal, path, body }) => {
    const version = await versionCreator().create(principal.userId, path.noteId, body);
    return created(presentVersion(version));
  },
);
