// GET /v1/notes/{noteId}/comments/{commentId}: one comment or reply with its thread's state (HackMD GetNoteComment).
import { ok } from '#lib/http/rest.ts';
import { presentComment } from '#lib/notes/revisions/comments.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { commentPath } from '#lib/notes/revisions/schemas.ts';
import { commentReader } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation({ path: commentPath }, async ({ principal, path }) => {
  const comment = await commentReader().get(principal.userId, path.noteId, path.commentId);
  return ok(presentComment(comment, true));
});
