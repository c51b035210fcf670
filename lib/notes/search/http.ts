// The search route's answer: each hit as the note is listed (with its folderPaths as the caller may
// see them, read by the handler and given) and its snippet, and the page it is.
import { ok, type HttpResult } from '../../http/rest.ts';
import { type PathOf, presentNote } from '../kernel/present.ts';
import type { SearchPage } from './service.ts';

export function searchAnswer(found: SearchPage, pathOf: PathOf, page: number, limit: number): HttpResult {
  return ok({
    results: found.hits.map((h) => ({ ...presentNote(h.note, pathOf(h.note)), snippet: h.snippet })),
    pagination: { page, limit, total: found.total, hasNext: page * limit < found.total },
  });
}
