// The stylesheet and the icon of note pages, served at their own route (the CSP allows styles and
// images from the page's origin only, none inline). Readable from a 320 px phone to a desktop: one
// column of at most 46em; long words wrap, code blocks and tables (as wide as their content) scroll
// inside the column, never the page; a table of four columns or more keeps its cells at least 9em
// wide (a phone scrolls it rather than squeezing its rows tall).
import { createHash } from 'node:crypto';

// The code highlighting's colours in a dark scheme: one line of the stylesheet, written in parts.
const HLJS_DARK =
  '@media (prefers-color-scheme:dark){' +
  '.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#ff7b72}' +
  '.hljs-string,.hljs-attr,.hljs-symbol,.hljs-bullet,.hljs-addition{color:#a5d6ff}' +
  '.hljs-number,.hljs-literal,.hljs-variable,.hljs-template-variable{color:#79c0ff}' +
  '.hljs-title,.hljs-section,.hljs-name,.hljs-function{color:#d2a8ff}}';

export const PAGE_CSS = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--code:#f6f8fa;--link:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--code:#151b23;--link:#4493f8}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;overflow-wrap:anywhere}
.page{max-width:46em;margin:0 auto;padding:1.5em 1em 3em}
header{border-bottom:1px solid var(--line);margin-bottom:1.5em;padding-bottom:.75em}
header h1{font-size:2em;line-height:1.25;margin:0 0 .25em}
.meta{color:var(--muted);font-size:.9em;margin:0}
.tags{display:flex;flex-wrap:wrap;gap:.35em;list-style:none;margin:.5em 0 0;padding:0}
.tags li{border:1px solid var(--line);border-radius:1em;padding:0 .6em;font-size:.85em}
main .tags{margin-bottom:1em}
a{color:var(--link)}
img{max-width:100%;height:auto}
pre{background:var(--code);border-radius:6px;padding:.8em 1em;overflow-x:auto;overflow-wrap:normal}
code{font:.9em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--code);border-radius:4px;padding:.1em .3em}
table{border-collapse:collapse;display:block;width:max-content;max-width:100%;overflow-x:auto;overflow-wrap:normal}
th,td{border:1px solid var(--line);padding:.35em .7em}
table:has(tr>:nth-child(4)) :is(th,td){min-width:9em}
.align-left{text-align:left}.align-right{text-align:right}.align-center{text-align:center}
blockquote{border-left:.25em solid var(--line);color:var(--muted);margin:0;padding:0 1em}
.contains-task-list{list-style:none;padding-left:1.2em}
.task-list-item-checkbox{margin:0 .4em 0 -1.2em}
.table-of-contents{border:1px solid var(--line);border-radius:6px;padding:.5em 1em}
.footnotes{border-top:1px solid var(--line);color:var(--muted);font-size:.9em;margin-top:2em}
.plain-note{color:var(--muted);font-size:.9em}
.plain-text{white-space:pre-wrap;overflow-wrap:anywhere}
footer{color:var(--muted);font-size:.85em;margin-top:3em}
.hljs-comment,.hljs-quote{color:#6e7781;font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#cf222e}
.hljs-string,.hljs-attr,.hljs-symbol,.hljs-bullet,.hljs-addition{color:#0a3069}
.hljs-number,.hljs-literal,.hljs-variable,.hljs-template-variable{color:#0550ae}
.hljs-title,.hljs-section,.hljs-name,.hljs-function{color:#8250df}
.hljs-deletion{color:#82071e}
${HLJS_DARK}
`.trim();

/**
 * The page's icon, named by every page (a browser would otherwise ask for /favicon.ico, which the
 * page's origin may not serve to it).
 */
export const PAGE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="1" width="12" height="14" ' +
  'rx="2" fill="#0969da"/><path d="M5 5h6M5 8h6M5 11h4" stroke="#fff" stroke-width="1.5"/></svg>';

const versionOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 12);

/** The files a page names, by their versioned names under `/_page/` (a change is a new name). */
export const PAGE_ASSETS = {
  stylesheet: { name: `notes-${versionOf(PAGE_CSS)}.css`, type: 'text/css; charset=utf-8', body: PAGE_CSS },
  icon: { name: `icon-${versionOf(PAGE_ICON)}.svg`, type: 'image/svg+xml', body: PAGE_ICON },
} as const;

/** The version of the files a page names: part of every page's ETag. */
export const PAGE_ASSETS_VERSION = versionOf(PAGE_CSS + PAGE_ICON);
