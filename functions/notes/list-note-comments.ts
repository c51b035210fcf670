// GET /v1/notes/{noteId}/comments: comments and replies of a note, filtered and paged (HackMD ListNoteComments).
import { ok } from '#lib/http/rest.ts';
import { presentComment } from '#lib/notes/revisions/comments.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { commentsQuery } from '#lib/notes/revisions/schemas.ts';
import { commentLister } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, query: commentsQuery },
  async ({ principal, path, query }) => {
    const found = await commentLister().list(principal.userId, path.noteId, query);
    return ok({
      comments: found.comments.map((c) => presentComment(c)),
      pagination: { page: found.page, limit: found.limit, hasNext: found.hasNext },
    });
  },
);
