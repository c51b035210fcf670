// The stylesheet of note pages, served at its own route (the CSP allows styles from the page's
// origin only, none inline). Readable from a 320 px phone to a desktop: one column of at most
// 46em; long words, code blocks and tables scroll or wrap inside the column, never the page.
import { createHash } from 'node:crypto';

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
a{color:var(--link)}
img{max-width:100%;height:auto}
pre{background:var(--code);border-radius:6px;padding:.8em 1em;overflow-x:auto;overflow-wrap:normal}
code{font:.9em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--code);border-radius:4px;padding:.1em .3em}
table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto;overflow-wrap:normal}
th,td{border:1px solid var(--line);padding:.35em .7em}
.align-left{text-align:left}.align-right{text-align:right}.align-center{text-align:center}
blockquote{border-left:.25em solid var(--line);color:var(--muted);margin:0;padding:0 1em}
.contains-task-list{list-style:none;padding-left:1.2em}
.task-list-item-checkbox{margin:0 .4em 0 -1.2em}
.table-of-contents{border:1px solid var(--line);border-radius:6px;padding:.5em 1em}
.footnotes{border-top:1px solid var(--line);color:var(--muted);font-size:.9em;margin-top:2em}
footer{color:var(--muted);font-size:.85em;margin-top:3em}
.hljs-comment,.hljs-quote{color:#6e7781;font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#cf222e}
.hljs-string,.hljs-attr,.hljs-symbol,.hljs-bullet,.hljs-addition{color:#0a3069}
.hljs-number,.hljs-literal,.hljs-variable,.hljs-template-variable{color:#0550ae}
.hljs-title,.hljs-section,.hljs-name,.hljs-function{color:#8250df}
.hljs-deletion{color:#82071e}
@media (prefers-color-scheme:dark){.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#ff7b72}.hljs-string,.hljs-attr,.hljs-symbol,.hljs-bullet,.hljs-addition{color:#a5d6ff}.hljs-number,.hljs-literal,.hljs-variable,.hljs-template-variable{color:#79c0ff}.hljs-title,.hljs-section,.hljs-name,.hljs-function{color:#d2a8ff}}
`.trim();

/** The stylesheet's version: part of its address and of every page's ETag. */
export const PAGE_CSS_VERSION = createHash('sha256').update(PAGE_CSS).digest('base64url').slice(0, 12);
