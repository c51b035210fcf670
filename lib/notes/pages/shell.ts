// The frame of every note page (head, icon and stylesheet links) and the one 404 page. Kept apart from the
// markdown renderer (./page.ts, ./markdown.ts), which the function loads only when it renders a
// note: a 404, a 304 or the stylesheet never pay for markdown-it, highlight.js and sanitize-html.
import { escapeUTF8 } from 'entities/escape';
import { PAGE_ASSETS } from './style.ts';

/** Text as HTML: &, <, >, " and ' escaped (entities, the HTML parser's own package). */
export const escapeHtml = (s: string): string => escapeUTF8(s);

/** Where a page's file is, under the page's base path (`base`: the public base URL's path). */
export const assetPath = (base: string, asset: keyof typeof PAGE_ASSETS) =>
  `${base}/_page/${PAGE_ASSETS[asset].name}`;

export const shell = (base: string, title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
  `<link rel="icon" href="${escapeHtml(assetPath(base, 'icon'))}" type="image/svg+xml">` +
  `<link rel="stylesheet" href="${escapeHtml(assetPath(base, 'stylesheet'))}"></head>` +
  `<body><div class="page">${body}</div></body></html>`;

export const notFoundPage = (base: string): string =>
  shell(
    base,
    'Not found',
    '<header><h1>Not found</h1></header><main><p>There is no page at this address, or it is not public.</p></main>',
  );
