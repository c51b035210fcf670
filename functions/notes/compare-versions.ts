// GET /v1/notes/{noteId}/versions/compare?base=&target=: a unified diff between two states (HackMD CompareVersions).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { compareVersions } from '#lib/notes/revisions/compare.ts';
import { compareQuery } from '#lib/notes/revisions/schemas.ts';
import { versionReader } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, query: compareQuery },
  async ({ principal, path, query }) => {
    const diff = await compareVersions(
      versionReader(),
      principal.userId,
      path.noteId,
      query.base,
      query.target,
    );
    return ok({ unified_diff: diff });
  },
);
