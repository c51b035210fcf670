// Where an anchored piece of text is now: the anchor's offsets mapped through a character diff
// (the `diff` package) from the content the comment was written on to the live content.
// Offsets and lengths count UTF-16 code units (JavaScript string indexes).
// The diff between two contents is computed once (its `Runs`) and serves every anchor written on
// the same content; the comments store keeps it per pair of contents (CommentStore.runs).
import { diffChars } from 'diff';

export interface Anchor {
  offset: number;
  length: number;
}

/** Runs of unchanged characters, each [start in base, end in base, start in live], in order. */
export type Runs = [number, number, number][];

/** Larger edits than this (characters inserted + deleted) count as a rewrite of the changed middle. */
export const MAX_EDIT_LENGTH = 20_000;
/** A diff that takes longer than this (ms) counts the same way. */
export const DIFF_TIMEOUT_MS = 200;

/**
 * How `base` maps into `live`: the common beginning and end, and between them the unchanged runs of
 * a character diff bounded by the library's own limits (`maxEditLength`, `timeout`). A diff that
 * hits a limit (or `timeoutMs` of 0: no time left) leaves the changed middle as rewritten.
 */
export function runsBetween(base: string, live: string, timeoutMs = DIFF_TIMEOUT_MS): Runs {
  if (base === live) return [[0, base.length, 0]];
  const shortest = Math.min(base.length, live.length);
  let prefix = 0;
  while (prefix < shortest && base.charCodeAt(prefix) === live.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    base.charCodeAt(base.length - 1 - suffix) === live.charCodeAt(live.length - 1 - suffix)
  )
    suffix += 1;
  const runs: Runs = [[0, prefix, 0]];
  const middle =
    timeoutMs > 0
      ? diffChars(base.slice(prefix, base.length - suffix), live.slice(prefix, live.length - suffix), {
          maxEditLength: MAX_EDIT_LENGTH,
          timeout: timeoutMs,
        })
      : undefined;
  let from = prefix;
  let to = prefix;
  for (const change of middle ?? []) {
    const n = change.value.length;
    if (change.added) to += n;
    else if (change.removed) from += n;
    else {
      runs.push([from, from + n, to]);
      from += n;
      to += n;
    }
  }
  runs.push([base.length - suffix, base.length, live.length - suffix]);
  return runs;
}

/**
 * The anchor in the live content: it spans from the first to the last of its characters that
 * survived the edits (with whatever was inserted between them); null when none of them survived.
 */
export function followRuns(runs: Runs, anchor: Anchor): Anchor | null {
  const start = anchor.offset;
  const end = anchor.offset + anchor.length;
  let first = -1;
  let last = -1;
  for (const [os, oe, ns] of runs) {
    const lo = Math.max(start, os);
    const hi = Math.min(end, oe);
    if (lo >= hi) continue;
    if (first < 0) first = ns + (lo - os);
    last = ns + (hi - os);
  }
  return first < 0 ? null : { offset: first, length: last - first };
}

export const followAnchor = (base: string, live: string, anchor: Anchor): Anchor | null =>
  base === live ? anchor : followRuns(runsBetween(base, live), anchor);

/** Runs as small numbers (gaps and lengths), for storage; `fromDeltas` reverses it. */
export function toDeltas(runs: Runs): number[] {
  const out: number[] = [];
  let oe = 0;
  let ne = 0;
  for (const [os, e, ns] of runs) {
    out.push(os - oe, ns - ne, e - os);
    oe = e;
    ne = ns + (e - os);
  }
  return out;
}

export function fromDeltas(deltas: number[]): Runs {
  const runs: Runs = [];
  let oe = 0;
  let ne = 0;
  for (let i = 0; i + 2 < deltas.length; i += 3) {
    const os = oe + deltas[i];
    const ns = ne + deltas[i + 1];
    runs.push([os, os + deltas[i + 2], ns]);
    oe = os + deltas[i + 2];
    ne = ns + deltas[i + 2];
  }
  return runs;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
/** Whether index `i` of `text` falls between the two halves of a surrogate pair. */
const insidePair = (text: string, i: number) =>
  i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i));

/** The anchor widened to whole code points: it never starts or ends inside a surrogate pair. */
export function snapToCodePoints(text: string, a: Anchor): Anchor {
  const start = insidePair(text, a.offset) ? a.offset - 1 : a.offset;
  const end = insidePair(text, a.offset + a.length) ? a.offset + a.length + 1 : a.offset + a.length;
  return { offset: start, length: end - start };
}

/** The most characters (code points) of anchored text a comment keeps and shows as its excerpt. */
export const MAX_EXCERPT_CHARS = 1000;

/** What ends an excerpt that was cut short (HackMD's comment shapes have no field to say so). */
export const EXCERPT_CUT = '\u2026';

/** Where the first `chars` characters (whole code points) of `text` end, in UTF-16 units. */
function codePointsEnd(text: string, chars: number): number {
  let end = 0;
  for (let n = 0; end < text.length && n < chars; n += 1)
    end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return end;
}

/**
 * The excerpt of `text`: all of it when it has at most MAX_EXCERPT_CHARS characters (whole code
 * points), else its first MAX_EXCERPT_CHARS - 1 and `…` (so at most MAX_EXCERPT_CHARS either way);
 * `truncated` says which. `cut`: `text` is known to be cut already (a stored excerpt of a comment
 * written before the mark): it gets the mark unless it has it.
 */
export function excerptOf(text: string, cut = false): { excerpt: string; truncated: boolean } {
  const whole = codePointsEnd(text, MAX_EXCERPT_CHARS) === text.length;
  if (whole && !cut) return { excerpt: text, truncated: false };
  if (whole && text.endsWith(EXCERPT_CUT)) return { excerpt: text, truncated: true };
  return {
    excerpt: text.slice(0, codePointsEnd(text, MAX_EXCERPT_CHARS - 1)) + EXCERPT_CUT,
    truncated: true,
  };
}
