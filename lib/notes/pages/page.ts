// The HTML of a note page: title, tags, last change and author above the rendered markdown
// (loaded only when a page renders: ./http.ts). Every value from the note is escaped (the markdown is
// sanitised in ./markdown.ts). A note past the renderer's budget shows its text, escaped, in a <pre>.
import type { NoteWithContent } from '../kernel/model.ts';
import { renderMarkdown } from './markdown.ts';
import { escapeHtml, shell } from './shell.ts';

/** The note's text as it was written, for a note too complex to render within the budget. */
const plainText = (content: string) =>
  '<p class="plain-note">This note is too complex to show formatted: here is its text.</p>' +
  `<pre class="plain-text">${escapeHtml(content)}</pre>`;

export function notePage(base: string, { note, content }: NoteWithContent): string {
  const changed = new Date(note.lastChangedAt);
  const owner = note.teamPath ?? note.userPath;
  const rendered = renderMarkdown(content);
  const body = 'html' in rendered ? rendered.html : plainText(content);
  // The tags show where the content's `###### tags:` line puts them (as HackMD shows them), else here.
  const tags =
    note.tags.length && !('tagsLine' in rendered && rendered.tagsLine)
      ? `<ul class="tags">${note.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`
      : '';
  // The title is the page's heading, unless the rendered content starts with it (a `# title` line).
  const leadsWithTitle =
    'html' in rendered && content.trimStart().split('\n', 1)[0].trim() === `# ${note.title}`;
  const heading = leadsWithTitle ? '' : `<h1>${escapeHtml(note.title)}</h1>`;
  const header =
    `<header>${heading}<p class="meta">Last changed ` +
    `<time datetime="${changed.toISOString()}">${changed.toUTCString()}</time>` +
    (note.lastChangeUser ? ` by ${escapeHtml(note.lastChangeUser.name)}` : '') +
    (owner ? ` · @${escapeHtml(owner)}` : '') +
    `</p>${tags}</header>`;
  const main = `<main class="markdown-body">${body}</main>`;
  return shell(base, note.title, `${header}${main}<footer>A read-only page of a note.</footer>`);
}
