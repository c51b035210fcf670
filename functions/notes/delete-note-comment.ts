// DELETE /v1/notes/{noteId}/comments/{commentId}: deletes one's own comment (a thread head with its replies) — our extension.
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { commentPath } from '#lib/notes/revisions/schemas.ts';
import { commentRemover } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation({ path: commentPath }, async ({ principal, path }) => {
  await commentRemover().delete(principal.userId, path.noteId, path.commentId);
  return noContent();
});
