// What search indexes of a note, and how text becomes terms. Markdown is parsed (markdown-it, with
// the extensions note pages render: GitHub tables and strikethrough, footnotes, task lists), and only
// its words are kept, as a reader reads them: link and image targets, fence markers and info strings,
// emphasis and heading markers, table pipes, task-list boxes, footnote references, raw HTML are
// syntax, not words (a table's cells read as words between spaces, a row per line). Terms are lower-cased and accent-folded (`résumé`
// → `resume`: combining diacritical marks dropped after NFD; kana voicing marks are not diacritics
// and stay). Scripts written without spaces between words are split so any word inside is found:
// Han, kana and Hangul into overlapping character pairs (bigrams; one character alone stays one term),
// Thai, Lao, Khmer and Myanmar by Intl.Segmenter's word boundaries.
import MarkdownIt from 'markdown-it';
import footnote from 'markdown-it-footnote';

/** Longest term kept (longer runs are ids, hashes or encoded data, not words). */
export const MAX_TERM_LENGTH = 40;

const markdown = new MarkdownIt('default', { html: true }).use(footnote);
type Token = ReturnType<typeof markdown.parse>[number];

/** Block tokens after which the plain text breaks a line (a table's cells: a space). */
const BREAK_AFTER = /_close$|^(fence|code_block|hr)$/;
const CELL = /^t[hd]_close$/;
const TOC = /^\[toc\]$/i;
/** A task list item's box (`- [ ] `, `- [x] `): syntax, as the page renders it (a checkbox). */
const TASK_BOX = /^\[[ xX]\][ \t]/;

function inlineText(children: Token[] | null, out: string[]): void {
  for (const t of children ?? []) {
    if (t.type === 'text' || t.type === 'code_inline') out.push(t.content);
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out.push('\n');
    else if (t.type === 'image') inlineText(t.children, out);
  }
}

/** The words of a markdown document as plain text: one line per block, syntax left out. */
export function plainText(md: string): string {
  const out: string[] = [];
  const tokens = markdown.parse(md, {});
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // A list item's paragraph that starts with a box is a task: the box is not a word.
    if (t.type === 'inline' && tokens[i - 2]?.type === 'list_item_open') {
      const first = t.children?.[0];
      const box = first?.type === 'text' ? TASK_BOX.exec(first.content) : null;
      if (box) first!.content = first!.content.slice(box[0].length);
    }
    // `[TOC]` alone in its paragraph is where a page shows its contents, not a word.
    if (t.type === 'inline' && !TOC.test(t.content)) inlineText(t.children, out);
    else if (t.type === 'fence' || t.type === 'code_block') out.push(t.content);
    if (!BREAK_AFTER.test(t.type) || !out.length) continue;
    const last = out[out.length - 1];
    if (CELL.test(t.type)) {
      if (!/\s$/.test(last)) out.push(' ');
    } else if (last === ' ') out[out.length - 1] = '\n';
    else if (!last.endsWith('\n')) out.push('\n');
  }
  return out.join('').trimEnd();
}

const PAIRED = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}ー`;
const SEGMENTED = String.raw`\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}`;
/** A run of one kind: paired script, segmented script, or other letters and digits (with their marks). */
const RUN = new RegExp(
  String.raw`([${PAIRED}]+)|([${SEGMENTED}]+)|([[\p{L}\p{N}\p{M}]--[${PAIRED}${SEGMENTED}]]+)`,
  'gv',
);
const DIACRITICS = /[\u0300-\u036f]/g;
let segmenter: Intl.Segmenter | undefined;

const ASCII = /^[0-9A-Za-z]*$/;

/** A term as indexed: lower case, accents folded (ASCII letters and digits have none: lower-cased only, the common case). */
export const fold = (word: string): string =>
  ASCII.test(word)
    ? word.toLowerCase()
    : word.normalize('NFD').replace(DIACRITICS, '').normalize('NFC').toLowerCase();

export interface Span {
  term: string;
  /** Offset and length in the text the term was read from (UTF-16 code units). */
  offset: number;
  length: number;
}

/** The terms of a text with where each was read (in order; bigrams of a paired run overlap). */
export function tokensOf(text: string): Span[] {
  return [...spans(text)];
}

/** tokensOf, one term at a time (a reader that stops early reads no further). */
export function* spans(text: string): Generator<Span> {
  for (const m of text.matchAll(RUN)) {
    const at = m.index;
    if (m[1]) {
      const chars = [...m[1]];
      if (chars.length === 1) yield { term: fold(m[1]), offset: at, length: m[1].length };
      let offset = at;
      for (let i = 0; i + 1 < chars.length; i += 1) {
        const pair = chars[i] + chars[i + 1];
        yield { term: fold(pair), offset, length: pair.length };
        offset += chars[i].length;
      }
    } else if (m[2]) {
      segmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
      for (const s of segmenter.segment(m[2]))
        if (s.isWordLike) yield { term: fold(s.segment), offset: at + s.index, length: s.segment.length };
    } else if (m[0].length <= MAX_TERM_LENGTH) {
      yield { term: fold(m[0]), offset: at, length: m[0].length };
    }
  }
}

/** The terms of a text, in order (what the engine indexes and searches). */
export const termsOf = (text: string): string[] => tokensOf(text).map((t) => t.term);
