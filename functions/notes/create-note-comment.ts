// POST /v1/notes/{noteId}/comments: a new thread (optionally anchored) or a reply — our extension to HackMD's API.
import { created } from '#lib/http/rest.ts';
import { presentComment } from '#lib/notes/revisions/comments.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { createCommentBody } from '#lib/notes/revisions/schemas.ts';
import { commentCreator } from '#lib/notes/revisions/wiring.ts';

export const handler = notesOperation(
  { path: notePath, body: { schema: createCommentBody } },
  async ({ principal, path, body }) => {
    const comment = await commentCreator().create(principal.userId, path.noteId, body);
    return created(presentComment(comment, true));
  },
);
