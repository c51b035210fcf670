// GET /v1/notes/{noteId}/versions: the note's versions, newest first, filtered and paged (HackMD ListVersions).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { versionsQuery } from '#lib/notes/revisions/schemas.ts';
import { presentVersion } from '#lib/notes/revisions/versions.ts';
import { versionLister } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, query: versionsQuery },
  async ({ principal, path, query }) => {
    const found = await versionLister().list(principal.userId, path.noteId, query);
    return ok({
      data: found.versions.map((v) => presentVersion(v)),
      meta: { total_pages: found.totalPages, total: found.total, limit: found.limit, page: found.page },
    });
  },
);
