// RFC 9110 validators, shared by every API that serves ETag / Last-Modified.

/**
 * Whether an If-Match / If-None-Match value lists `etag` (`*` lists every current representation).
 * `weak` comparison (If-None-Match) ignores a W/ prefix; strong comparison (If-Match) never matches one.
 */
export function etagListed(header: string, etag: string, weak: boolean): boolean {
  return header
    .split(',')
    .map((t) => t.trim())
    .some((tag) => {
      if (tag === '*') return true;
      if (tag.startsWith('W/')) return weak && tag.slice(2) === etag;
      return tag === etag;
    });
}

/** Conditional GET: If-None-Match wins over If-Modified-Since, which compares at second precision. */
export function isNotModified(
  headers: Record<string, string | undefined>,
  etag: string,
  lastModifiedMs: number,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return etagListed(ifNoneMatch, etag, true);
  const since = Date.parse(headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}
