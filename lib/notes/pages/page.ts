// The HTML of a note page and of the one 404 page: title, tags, last change and author above the
// rendered markdown. Every value from the note is escaped (the markdown is sanitised in ./markdown.ts).
import type { NoteWithContent } from '../kernel/model.ts';
import { escapeHtml, renderMarkdown } from './markdown.ts';
import { PAGE_CSS_VERSION } from './style.ts';

/** Where the stylesheet is, under the page's base path (`base`: the public base URL's path). */
export const stylesheetPath = (base: string) => `${base}/_page/notes-${PAGE_CSS_VERSION}.css`;

const shell = (base: string, title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
  `<link rel="stylesheet" href="${escapeHtml(stylesheetPath(base))}"></head>` +
  `<body><div class="page">${body}</div></body></html>`;

export function notePage(base: string, { note, content }: NoteWithContent): string {
  const changed = new Date(note.lastChangedAt);
  const owner = note.teamPath ?? note.userPath;
  const tags = note.tags.length
    ? `<ul class="tags">${note.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`
    : '';
  // The title is the page's heading, unless the content starts with it (a `# title` line).
  const leadsWithTitle = content.trimStart().split('\n', 1)[0].trim() === `# ${note.title}`;
  const heading = leadsWithTitle ? '' : `<h1>${escapeHtml(note.title)}</h1>`;
  const header =
    `<header>${heading}<p class="meta">Last changed ` +
    `<time datetime="${changed.toISOString()}">${changed.toUTCString()}</time>` +
    (note.lastChangeUser ? ` by ${escapeHtml(note.lastChangeUser.name)}` : '') +
    (owner ? ` · @${escapeHtml(owner)}` : '') +
    `</p>${tags}</header>`;
  const main = `<main class="markdown-body">${renderMarkdown(content)}</main>`;
  return shell(base, note.title, `${header}${main}<footer>A read-only page of a note.</footer>`);
}

export const notFoundPage = (base: string): string =>
  shell(
    base,
    'Not found',
    '<header><h1>Not found</h1></header><main><p>There is no page at this address, or it is not public.</p></main>',
  );
