// GET /v1/search?q=[&team=&tag=&folderId=&page=&limit=] (extension): full-text search of every note
// the caller may read (their own and their teams'), best match first, each with a snippet.
import '#lib/notes/search/embedded.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { DEFAULT_PAGE_SIZE } from '#lib/notes/search/model.ts';
import { searchAnswer } from '#lib/notes/search/http.ts';
import { searchQuery } from '#lib/notes/search/schemas.ts';
import { noteSearch } from '#lib/notes/search/wiring.ts';

export const handler = notesOperation({ query: searchQuery }, async ({ principal, query }) => {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const found = await noteSearch().search(principal.userId, { ...query, page, limit });
  const pathOf = await folderPaths().pathsFor(
    principal.userId,
    found.hits.map((h) => h.note),
  );
  return searchAnswer(found, pathOf, page, limit);
});
