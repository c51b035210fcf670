// Note pages over HTTP: a page (200, or 304 when If-None-Match lists its ETag), the one 404 (HTML
// for a browser, the Notes dialect's JSON for an API client), the stylesheet and the icon. Every
// response carries a strict Content-Security-Policy (nothing inline, no script, styles from the
// page's origin, images from it and the image host), a sandbox, and refuses to be framed.
import { etagListed } from '../../http/conditional.ts';
import { config } from '../../config.ts';
import type { ApiEvent, ApiResult } from '../../http/types.ts';
import { etagOf, type NoteRecord } from '../kernel/model.ts';
import type { PublicNote } from './model.ts';
import { notFoundPage } from './shell.ts';
import { PAGE_ASSETS, PAGE_ASSETS_VERSION } from './style.ts';

/** The public base URL's path ("" at a domain's root): pages and their stylesheet live under it. */
const basePath = () => new URL(config.publicBaseUrl).pathname.replace(/\/$/, '');

const securityHeaders = (event: ApiEvent) => ({
  'X-Request-Id': event.requestContext?.requestId ?? '',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains; preload',
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' ${new URL(config.imageBaseUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

const HTML = 'text/html; charset=utf-8';
/** Pages are public: a reader's cache or a CDN may keep one a minute, then asks again (ETag). */
const PAGE_CACHE = 'public, max-age=60';

/** The ETag of a note's page: the note's version and its files' (the page names them). */
const pageEtag = (note: Pick<NoteRecord, 'shortId' | 'version'>) =>
  `"page-${etagOf(note).slice(1, -1)}-${PAGE_ASSETS_VERSION}"`;

/**
 * A note's page: 304 when If-None-Match lists its ETag, else the page this instance keeps for that
 * ETag, else the page rendered from the note read with its content (only then is the content read).
 */
export async function pageResponse(event: ApiEvent, found: PublicNote | undefined): Promise<ApiResult> {
  if (!found) return notFound(event);
  const headers = (etag: string) => ({
    ...securityHeaders(event),
    ETag: etag,
    'Cache-Control': PAGE_CACHE,
    Vary: 'Accept',
  });
  const etag = pageEtag(found.note);
  const ifNoneMatch = event.headers?.['if-none-match'];
  if (ifNoneMatch !== undefined && etagListed(ifNoneMatch, etag, true))
    return { statusCode: 304, headers: headers(etag), body: '' };
  const kept = keptPage(etag);
  if (kept !== undefined)
    return { statusCode: 200, headers: { ...headers(etag), 'Content-Type': HTML }, body: kept };
  const full = await found.withContent();
  if (!full) return notFound(event);
  // The renderer (markdown-it, highlight.js, sanitize-html) loads with the first page rendered.
  const page = (await import('./page.ts')).notePage(basePath(), full);
  const fullEtag = pageEtag(full.note);
  keep(fullEtag, page);
  return { statusCode: 200, headers: { ...headers(fullEtag), 'Content-Type': HTML }, body: page };
}

/**
 * Pages rendered by this instance, by ETag (a note's version: a change is a new key), most recently
 * used last, at most RENDERED_BYTES of HTML: a note read again is not rendered again.
 */
const RENDERED_BYTES = 16 * 1024 * 1024;
const renderedPages = new Map<string, string>();
let renderedBytes = 0;
function keptPage(etag: string): string | undefined {
  const html = renderedPages.get(etag);
  if (html !== undefined) {
    renderedPages.delete(etag);
    renderedPages.set(etag, html);
  }
  return html;
}
function keep(etag: string, html: string): void {
  if (renderedPages.has(etag)) return;
  renderedPages.set(etag, html);
  renderedBytes += html.length;
  for (const [key, old] of renderedPages) {
    if (renderedBytes <= RENDERED_BYTES) break;
    renderedPages.delete(key);
    renderedBytes -= old.length;
  }
}

/**
 * The same 404 for every address that shows nothing: an HTML page for a browser (Accept names
 * text/html), the Notes dialect's error for an API client (the two-segment route also takes paths
 * like /v1/unknown, which API clients expect to answer in JSON).
 */
export function notFound(event: ApiEvent): ApiResult {
  const html = /text\/html/i.test(event.headers?.accept ?? '');
  const description = 'No note page at this address';
  return {
    statusCode: 404,
    headers: {
      ...securityHeaders(event),
      'Content-Type': html ? HTML : 'application/json; charset=utf-8',
      'Cache-Control': 'no-cache',
      Vary: 'Accept',
    },
    body: html
      ? notFoundPage(basePath())
      : JSON.stringify({ code: 40400, message: 'Not found', description, error: description }),
  };
}

/** The stylesheet or the icon at its versioned address (cached for a year: a new version has a new address). */
export function pageAsset(event: ApiEvent): ApiResult {
  const asset = Object.values(PAGE_ASSETS).find((a) => a.name === event.pathParameters?.asset);
  if (!asset) return notFound(event);
  return {
    statusCode: 200,
    headers: {
      ...securityHeaders(event),
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: `"${asset.name}"`,
    },
    body: asset.body,
  };
}

/**
 * A failure while finding a page: 503 with Retry-After when a dependency is unavailable (as every
 * route answers then), else 500; HTML for a browser, the Notes dialect's JSON for an API client.
 * The error's own text never reaches the reader.
 */
export function pageError(event: ApiEvent, err: unknown): ApiResult {
  const retryAfter =
    (err as { kind?: string; retryAfterSeconds?: number })?.kind === 'unavailable'
      ? ((err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 1)
      : undefined;
  const status = retryAfter === undefined ? 500 : 503;
  const message = retryAfter === undefined ? 'Internal server error' : 'Service unavailable';
  const description =
    retryAfter === undefined
      ? 'The page could not be shown'
      : 'The notes are unavailable for a moment: try again';
  const html = /text\/html/i.test(event.headers?.accept ?? '');
  return {
    statusCode: status,
    headers: {
      ...securityHeaders(event),
      'Content-Type': html ? HTML : 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      Vary: 'Accept',
      ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
    },
    body: html
      ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${message}</title></head><body><p>${description}.</p></body></html>`
      : JSON.stringify({ code: status * 100, message, description, error: description }),
  };
}
