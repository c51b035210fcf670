// GET /v1/notes[?folderId=]: the caller's own notes (or those directly in one of their folders), most
// recently changed first, with their folderPaths (ListNotes in the Notes interface document).
import { notesQuery } from '#lib/notes/kernel/params.ts';
import { noteList } from '#lib/notes/notes/http.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderNotes, folderPaths } from '#lib/notes/folders/wiring.ts';
import { noteLister } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation({ query: notesQuery }, async ({ principal, query }) => {
  const { userId } = principal;
  const list = query.folderId
    ? await folderNotes().notesIn(userId, query.folderId)
    : await noteLister().listNotes(userId);
  return noteList(list, await folderPaths().pathsFor(userId, list));
});
