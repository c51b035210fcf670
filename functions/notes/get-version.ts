// GET /v1/notes/{noteId}/versions/{versionId}: one version with its content (HackMD GetVersion).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { versionPath } from '#lib/notes/revisions/schemas.ts';
import { presentVersion } from '#lib/notes/revisions/versions.ts';
import { versionReader } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation({ path: versionPath }, async ({ principal, path }) => {
  const { version, content } = await versionReader().get(principal.userId, path.noteId, path.versionId);
  return ok(presentVersion(version, content ?? null));
});
