// A note's markdown as HTML, in HackMD's flavour where well-kept libraries give it: markdown-it
// (CommonMark, GitHub tables and strikethrough, raw HTML, linkify, line breaks as HackMD keeps them),
// footnotes, task lists, heading ids, a table of contents at `[TOC]`, HackMD's `###### tags:` line as
// tag chips, fenced code highlighted by highlight.js (its common languages). Everything markdown-it
// writes, raw HTML included, then goes through sanitize-html's allow-list (./sanitize.ts): nothing
// here is trusted.
//
// Every render has a budget (RENDER_LIMITS), so no note of any shape can hold the function's thread:
// markdown-it's own nesting limit; a count of tokens (as markdown-it makes them), headings and
// footnote references (between its stages), so a note past one stops there, early; a cap on
// the code highlight.js colours; and the HTML's size, checked before sanitize-html reads it and
// after. Past a limit the page shows the note's text instead (./page.ts). Heading ids are made
// unique in one pass (markdown-it-anchor's search restarts for each repeated heading: quadratic),
// the table of contents is rendered once and reused by every `[TOC]`, and task lists find their list
// in one pass (the task-list plugin walks back to it for every item: quadratic).
import MarkdownIt, { type StateBlock, type StateCore, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import toc from 'markdown-it-table-of-contents';
import { highlight } from './highlight.js';
import { sanitize } from './sanitize.ts';

type CoreRule = (state: StateCore) => void;

/**
 * What one render may use, chosen from measurement (`npm run bench -- --api notes --route "GET /{"`
 * renders the worst note of each kind; docs/notes.md has the figures). A note at MAX_CONTENT_BYTES
 * of ordinary prose, lists, tables and code stays well inside every one.
 */
export const RENDER_LIMITS = {
  /**
   * markdown-it's own limit on nested blocks and inlines. Deeper inlines render as text, but
   * markdown-it drops the rest of a note whose blocks nest this deep: such a note is too complex.
   */
  nesting: 32,
  /** Block and inline tokens together, counted as they are made (300 KiB of prose: 12,000-19,000). */
  tokens: 40_000,
  /** Headings (each gets an id; those of levels 1-3 are entries of the table of contents). */
  headings: 2_000,
  /** Footnote references (each renders a back-link in the footnotes). */
  footnoteRefs: 2_000,
  /** A fenced block longer than this is shown as plain code (highlight.js has no limit of its own). */
  highlightBlockChars: 8_000,
  /** Highlighted HTML per page; once past it, later blocks are shown as plain code. */
  highlightHtmlChars: 250_000,
  /** HTML (UTF-16 code units) markdown-it may write, and the sanitised HTML may have. */
  htmlChars: 1_000_000,
} as const;

export type RenderLimit = Exclude<keyof typeof RENDER_LIMITS, `highlight${string}`>;
export type Rendered = { html: string; tagsLine: boolean } | { tooComplex: RenderLimit };

/** Thrown while markdown-it parses a note past a limit; caught by renderMarkdown only. */
class TooComplex extends Error {
  constructor(readonly limit: RenderLimit) {
    super(`past the render limit ${limit}`);
  }
}

/** The highlighting left for the page being rendered (renders are synchronous: one at a time). */
let highlightLeft = 0;

const md: InstanceType<typeof MarkdownIt> = new MarkdownIt({
  html: true,
  linkify: true,
  breaks: true,
  maxNesting: RENDER_LIMITS.nesting,
  highlight: (code, lang) => {
    if (code.length > RENDER_LIMITS.highlightBlockChars || highlightLeft <= 0) return '';
    const html = highlight(code, lang || undefined);
    if (html === undefined) return '';
    highlightLeft -= html.length;
    return `<pre><code class="hljs language-${md.utils.escapeHtml(lang)}">${html}</code></pre>`;
  },
})
  .use(footnote)
  .use(toc, { markerPattern: /^\[TOC\]/im, includeLevel: [1, 2, 3] });

/** A heading's text, as markdown-it-anchor and the table of contents read it. */
const textOf = (inline: Token | undefined) =>
  (inline?.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');

const slugify = (s: string) => encodeURIComponent(s.trim().toLowerCase().replace(/\s+/g, '-'));

/**
 * Heading ids as markdown-it-anchor makes them (`a`, `a-1`, `a-2`, …), in one pass: each slug keeps
 * the next suffix to try, so a repeated heading never searches from 1 again.
 */
const headingIds: CoreRule = (state) => {
  const next = new Map<string, number>();
  const taken = new Set<string>();
  for (let i = 0; i < state.tokens.length; i++) {
    const open = state.tokens[i];
    if (open.type !== 'heading_open') continue;
    const slug = slugify(textOf(state.tokens[i + 1]));
    let id = slug;
    let n = next.get(slug) ?? 1;
    while (taken.has(id)) id = `${slug}-${n++}`;
    next.set(slug, n);
    taken.add(id);
    open.attrSet('id', id);
  }
};

/**
 * GitHub task lists (`- [ ]`, `- [x]`), in one pass: a list item whose paragraph starts with a box
 * gets a read-only checkbox; its list (the nearest open one) is marked, as the task-list plugin does.
 */
const taskLists: CoreRule = (state) => {
  const lists: Token[] = [];
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'bullet_list_open' || t.type === 'ordered_list_open') lists.push(t);
    else if (t.type === 'bullet_list_close' || t.type === 'ordered_list_close') lists.pop();
    else if (
      t.type === 'inline' &&
      tokens[i - 1]?.type === 'paragraph_open' &&
      tokens[i - 2]?.type === 'list_item_open'
    ) {
      const box = /^\[([ xX])\][ \t]/.exec(t.content);
      const first = t.children?.[0];
      if (!box || first?.type !== 'text' || !first.content.startsWith(box[0])) continue;
      first.content = first.content.slice(box[0].length);
      const input = new state.Token('html_inline', '', 0);
      input.content = `<input class="task-list-item-checkbox"${box[1] === ' ' ? '' : ' checked=""'} disabled="" type="checkbox">`;
      t.children!.unshift(input);
      tokens[i - 2].attrSet('class', 'task-list-item');
      lists.at(-1)?.attrSet('class', 'contains-task-list');
    }
  }
};

/**
 * HackMD's metadata line `###### tags: \`a\` \`b\`` (or bare words) is not a heading: it shows the
 * tags, as chips, where the writer put it.
 */
const tagsLine: CoreRule = (state) => {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'heading_open' || tokens[i].tag !== 'h6') continue;
    const inline = tokens[i + 1];
    const line = /^tags[ \t]*:(.*)$/i.exec(inline.content.trim());
    if (!line) continue;
    const code = (inline.children ?? []).filter((c) => c.type === 'code_inline').map((c) => c.content);
    const tags = (code.length ? code : line[1].split(/[\s,]+/)).map((s) => s.trim()).filter(Boolean);
    const chips = new state.Token('note_tags', 'ul', 0);
    chips.meta = { tags };
    chips.block = true;
    tokens.splice(i, 3, chips);
    (state.env as { tagsLine?: boolean }).tagsLine = true;
  }
};
md.renderer.rules.note_tags = (tokens, idx) =>
  `<ul class="tags">${((tokens[idx].meta?.tags ?? []) as string[]).map((t) => `<li>${md.utils.escapeHtml(t)}</li>`).join('')}</ul>\n`;

/** What a render has made so far (in markdown-it's env): checked as it goes, so a note past a limit stops early. */
type Budget = { tokens: number };
/** Counts `tokens` made, and throws when they and `pending` more are past the limit. */
const spend = (env: unknown, tokens: number, pending = 0) => {
  // The table of contents renders its entries' text apart (no budget: its headings were counted).
  const budget = (env as { budget?: Budget } | undefined)?.budget;
  if (budget === undefined) return;
  budget.tokens += tokens;
  if (budget.tokens + pending > RENDER_LIMITS.tokens) throw new TooComplex('tokens');
};

// Block tokens, checked before each block (a note of 35,000 list items stops at the limit, not after).
md.block.ruler.before('table', 'render_budget', (state) => {
  if (state.tokens.length > RENDER_LIMITS.tokens) throw new TooComplex('tokens');
  return false;
});
// A block nested at markdown-it's limit: markdown-it would drop it and the rest of the note.
const tokenize = md.block.tokenize.bind(md.block);
md.block.tokenize = (state: StateBlock, startLine: number, endLine: number) => {
  if (state.level >= RENDER_LIMITS.nesting) throw new TooComplex('nesting');
  tokenize(state, startLine, endLine);
};
// After the block stage: the headings; the block tokens start the count of all tokens.
md.core.ruler.after('block', 'render_budget_block', (state) => {
  let headings = 0;
  for (const t of state.tokens) if (t.type === 'heading_open') headings++;
  if (headings > RENDER_LIMITS.headings) throw new TooComplex('headings');
  spend(state.env, state.tokens.length);
});
// Each inline's tokens: checked as they are made (one paragraph of 70,000 footnote references stops
// at the limit, not at its end), and counted once it is parsed; after the inline stage, the footnote
// references.
md.inline.ruler.before('text', 'render_budget', (state) => {
  spend(state.env, 0, state.tokens.length);
  return false;
});
md.inline.ruler2.push('render_budget', (state) => spend(state.env, state.tokens.length));
md.core.ruler.after('inline', 'render_budget_inline', (state) => {
  let refs = 0;
  for (const t of state.tokens) for (const c of t.children ?? []) if (c.type === 'footnote_ref') refs++;
  if (refs > RENDER_LIMITS.footnoteRefs) throw new TooComplex('footnoteRefs');
});
md.core.ruler.push('note_tags', tagsLine);
md.core.ruler.push('heading_ids', headingIds);
md.core.ruler.push('task_lists', taskLists);

// One rule above the footnotes: the page's stylesheet draws it (.footnotes), the plugin's <hr> goes.
md.renderer.rules.footnote_block_open = () => '<section class="footnotes">\n<ol class="footnotes-list">\n';

// The table of contents, rendered once per page and reused by every `[TOC]` marker.
const tocBody = md.renderer.rules.toc_body!;
const tocOf = new WeakMap<Token[], string>();
md.renderer.rules.toc_body = (tokens, ...rest) => {
  const html = tocOf.get(tokens) ?? tocBody(tokens, ...rest);
  tocOf.set(tokens, html);
  return html;
};

/** The note's content as safe HTML (the inside of the page's <main>), or the limit it is past. */
export function renderMarkdown(content: string): Rendered {
  const env: { tagsLine?: boolean; budget: Budget } = { budget: { tokens: 0 } };
  highlightLeft = RENDER_LIMITS.highlightHtmlChars;
  try {
    const raw = md.renderer.render(md.parse(content, env), md.options, env);
    if (raw.length > RENDER_LIMITS.htmlChars) return { tooComplex: 'htmlChars' };
    const html = sanitize(raw);
    if (html.length > RENDER_LIMITS.htmlChars) return { tooComplex: 'htmlChars' };
    return { html, tagsLine: env.tagsLine === true };
  } catch (err) {
    if (err instanceof TooComplex) return { tooComplex: err.limit };
    throw err;
  }
}
