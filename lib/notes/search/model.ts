// Search as the domain sees it: workspaces (whose notes one index holds), queries, hits and snippets.
import { fold, plainText, type Span, spans, tokensOf } from './text.ts';

/** A workspace: a user's personal notes (`user:<userId>`) or a team's notes (`team:<teamPath>`). */
export type Workspace = `user:${string}` | `team:${string}`;
export const userWorkspace = (userId: string): Workspace => `user:${userId}`;
export const teamWorkspace = (teamPath: string): Workspace => `team:${teamPath}`;
export const workspaceOf = (note: { ownerId: string | null; teamPath: string | null }): Workspace =>
  note.teamPath ? teamWorkspace(note.teamPath) : userWorkspace(note.ownerId ?? '');
export const isWorkspace = (s: string): s is Workspace => /^(user|team):.+$/.test(s);

/**
 * Segments of a workspace's index: each note is in the one its shortId hashes to, so an edit loads
 * and stores one segment (an eighth of a large workspace's index), and a search loads the segments
 * in parallel (docs/search.md, "Where the index lives").
 */
export const SEGMENTS = 8;
/** The segment of a note: FNV-1a of its shortId, modulo SEGMENTS. */
export function segmentOf(shortId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < shortId.length; i += 1) h = Math.imul(h ^ shortId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SEGMENTS;
}

/** Longest query, in characters (the request schema's limit too). */
export const MAX_QUERY_LENGTH = 256;
/** Terms of a query searched (the rest are dropped: a pathological query costs no more than this). */
export const MAX_QUERY_TERMS = 16;
/** Hits a page holds at most (and by default). */
export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 20;

export interface Query {
  /** Every term, in order (the phrases' too). */
  terms: string[];
  /** The terms outside quotes: each must match (itself, or within one edit from five letters). */
  words: string[];
  /** Quoted phrases of two terms or more: each must appear as written, its terms in this order. */
  phrases: string[][];
  /** Whether the last word also matches as a prefix (it ends the query, outside quotes). */
  prefix: boolean;
}

/** `one "two three" four` → words one four, phrase [two, three], four also a prefix; capped at MAX_QUERY_TERMS. */
export function parseQuery(q: string): Query {
  const query: Query = { terms: [], words: [], phrases: [], prefix: false };
  for (const m of q.matchAll(/"([^"]*)"?|[^"]+/g)) {
    const found = tokensOf(m[1] ?? m[0]).map((t) => t.term);
    const room = found.slice(0, MAX_QUERY_TERMS - query.terms.length);
    if (!room.length) continue;
    query.terms.push(...room);
    const isPhrase = m[1] !== undefined && room.length > 1;
    if (isPhrase) query.phrases.push(room);
    else query.words.push(...room);
    query.prefix = m[1] === undefined;
    if (query.terms.length >= MAX_QUERY_TERMS) break;
  }
  return query;
}

export interface Snippet {
  /** A passage of the note's text (markdown syntax left out). */
  text: string;
  /** The matched words in `text`: offsets and lengths in UTF-16 code units, in order, not overlapping. */
  highlights: { offset: number; length: number }[];
}

/** Characters of text a snippet holds at most. */
export const SNIPPET_LENGTH = 200;

/** Where the passage around the first matched term of `text` is, and the matched terms read. */
function passage(text: string, matched: Set<string>): { start: number; end: number; hits: Span[] } {
  // The text's terms are read up to the passage's end only (a match is usually early in a note).
  const hits: Span[] = [];
  let start = 0;
  let end = Math.min(text.length, SNIPPET_LENGTH);
  for (const t of spans(text)) {
    if (hits.length && t.offset >= end) break;
    if (!matched.has(t.term)) continue;
    if (!hits.length) {
      start = Math.max(0, t.offset - SNIPPET_LENGTH / 4);
      // Start at a word's beginning: after the nearest whitespace before `start` (if close).
      if (start > 0) {
        const space = text.slice(start, t.offset).search(/\s/);
        if (space >= 0) start += space + 1;
      }
      end = Math.min(text.length, start + SNIPPET_LENGTH);
    }
    hits.push(t);
  }
  return { start, end, hits };
}

function snippetAt(text: string, { start, end, hits }: ReturnType<typeof passage>): Snippet {
  const highlights: Snippet['highlights'] = [];
  for (const h of hits) {
    if (h.offset < start || h.offset + h.length > end) continue;
    const last = highlights.at(-1);
    const offset = h.offset - start;
    if (last && offset <= last.offset + last.length)
      last.length = Math.max(last.length, offset + h.length - last.offset);
    else highlights.push({ offset, length: h.length });
  }
  return { text: text.slice(start, end), highlights };
}

/** A passage around the first matched term of `text` (its start if none matches), matches marked. */
export const snippetOf = (text: string, matched: Set<string>): Snippet =>
  snippetAt(text, passage(text, matched));

/** Characters of a note's markdown first read for its snippet (then four times more, until it fits). */
export const SNIPPET_READ = 2048;
/** A reference-style link's definition: it may come after the link, so only the whole note reads right. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

/**
 * snippetOf the note's text, reading only as much of its markdown as the passage needs: the first
 * SNIPPET_READ characters up to a blank line, then four times more, until the passage around the
 * first match ends before the text read does. Blocks end at blank lines, so the text of the markdown
 * read is the start of the whole note's text (a fence or an HTML block left open reads the same).
 * Matches are mostly early: most snippets parse a part of their note, not all of it.
 */
export function snippetOfMarkdown(markdown: string, matched: Set<string>, text = plainText): Snippet {
  const whole = REFERENCE_DEFINITION.test(markdown);
  for (let size = SNIPPET_READ; ; size *= 4) {
    const blank = whole || size >= markdown.length ? -1 : markdown.lastIndexOf('\n\n', size);
    const read = text(blank > 0 ? markdown.slice(0, blank) : markdown);
    const at = passage(read, matched);
    if (blank <= 0 || (at.hits.length > 0 && at.end < read.length)) return snippetAt(read, at);
  }
}

export { fold };
