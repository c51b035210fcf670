// PATCH /v1/notes/{noteId}/comments/{commentId}: changes the body of one's own comment — our extension.
import { ok } from '#lib/http/rest.ts';
import { presentComment } from '#lib/notes/revisions/comments.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { commentPath, updateCommentBody } from '#lib/notes/revisions/schemas.ts';
import { commentUpdater } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: commentPath, body: { schema: updateCommentBody } },
  async ({ principal, path, body }) => {
    const comment = await commentUpdater().edit(principal.userId, path.noteId, path.commentId, body.body);
    return ok(presentComment(comment, true));
  },
);
