// A note's markdown as HTML, in HackMD's flavour where well-kept libraries give it: markdown-it
// (CommonMark, GitHub tables and strikethrough, raw HTML, linkify, line breaks as HackMD keeps them),
// footnotes, task lists, heading anchors, a table of contents at `[TOC]`, fenced code highlighted by
// highlight.js (its common languages). Everything markdown-it writes, raw HTML included, then goes
// through sanitize-html's allow-list (./sanitize.ts): nothing here is trusted.
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import footnote from 'markdown-it-footnote';
import toc from 'markdown-it-table-of-contents';
import taskLists from '@hackmd/markdown-it-task-lists';
import { highlight } from './highlight.js';
import { sanitize } from './sanitize.ts';

const slugify = (s: string) => encodeURIComponent(String(s).trim().toLowerCase().replace(/\s+/g, '-'));

const md: InstanceType<typeof MarkdownIt> = new MarkdownIt({
  html: true,
  linkify: true,
  breaks: true,
  highlight: (code, lang) => {
    const html = highlight(code, lang || undefined);
    return html === undefined
      ? ''
      : `<pre><code class="hljs language-${md.utils.escapeHtml(lang)}">${html}</code></pre>`;
  },
})
  .use(footnote)
  .use(taskLists, { enabled: false })
  .use(anchor, { slugify, tabIndex: false })
  .use(toc, { markerPattern: /^\[TOC\]/im, includeLevel: [1, 2, 3], slugify });

/** The note's content as safe HTML (the inside of the page's <main>). */
export const renderMarkdown = (content: string): string => sanitize(md.render(content));
