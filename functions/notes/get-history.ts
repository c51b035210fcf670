// GET /v1/history?limit=: notes the caller read or changed, most recent first (GetHistory in the Notes interface document).
import { noteList } from '#lib/notes/notes/http.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { MAX_HISTORY } from '#lib/notes/kernel/model.ts';
import { historyQuery } from '#lib/notes/kernel/params.ts';
import { historyReader } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation({ query: historyQuery }, async ({ principal, query }) => {
  const visited = await historyReader().history(principal.userId, query.limit ?? MAX_HISTORY);
  return noteList(visited, await folderPaths().pathsFor(principal.userId, visited));
});
