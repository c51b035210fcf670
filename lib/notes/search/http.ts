// The search route's answer: each hit as the note is listed (with its folderPaths as the caller may
// see them) and its snippet, and the page it is.
import { ok, type HttpResult } from '../../http/rest.ts';
import { presentNote } from '../kernel/present.ts';
import { folderPaths } from '../folders/wiring.ts';
import type { SearchPage } from './service.ts';

export async function searchAnswer(
  viewerId: string,
  found: SearchPage,
  page: number,
  limit: number,
): Promise<HttpResult> {
  const pathOf = await folderPaths().pathsFor(
    viewerId,
    found.hits.map((h) => h.note),
  );
  return ok({
    results: found.hits.map((h) => ({ ...presentNote(h.note, pathOf(h.note)), snippet: h.snippet })),
    pagination: { page, limit, total: found.total, hasNext: page * limit < found.total },
  });
}
