// PUT /v1/notes/{noteId}/comments/{commentId}/resolution: resolves the comment's thread (HackMD ResolveNoteComment).
import { ok } from '#lib/http/rest.ts';
import { presentComment } from '#lib/notes/revisions/comments.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { commentPath } from '#lib/notes/revisions/schemas.ts';
import { commentUpdater } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation({ path: commentPath }, async ({ principal, path }) => {
  const done = await commentUpdater().resolve(principal.userId, path.noteId, path.commentId, true);
  return ok({ comment: presentComment(done.comment, true), cascade: done.cascade });
});
