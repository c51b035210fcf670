// Where an anchored piece of text is now: the anchor's offsets mapped through a character diff
// (the `diff` package) from the content the comment was written on to the live content.
// Offsets and lengths count UTF-16 code units (JavaScript string indexes).
import { diffChars } from 'diff';

export interface Anchor {
  offset: number;
  length: number;
}

/** Larger edits than this (characters inserted + deleted) count as a rewrite of the changed middle. */
const MAX_EDIT_LENGTH = 20_000;
/** A diff that takes longer than this (ms) counts the same way. */
const DIFF_TIMEOUT_MS = 200;

/**
 * The anchor in `live`: it spans from the first to the last of its characters that survived the
 * edits (with whatever was inserted between them); null when none of them survived.
 */
export function followAnchor(base: string, live: string, anchor: Anchor): Anchor | null {
  if (base === live) return anchor;
  const shortest = Math.min(base.length, live.length);
  let prefix = 0;
  while (prefix < shortest && base.charCodeAt(prefix) === live.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    base.charCodeAt(base.length - 1 - suffix) === live.charCodeAt(live.length - 1 - suffix)
  )
    suffix += 1;
  // Runs of unchanged characters: [start in base, end in base, start in live].
  const kept: [number, number, number][] = [[0, prefix, 0]];
  const middle = diffChars(
    base.slice(prefix, base.length - suffix),
    live.slice(prefix, live.length - suffix),
    {
      maxEditLength: MAX_EDIT_LENGTH,
      timeout: DIFF_TIMEOUT_MS,
    },
  );
  let from = prefix;
  let to = prefix;
  for (const change of middle ?? []) {
    const n = change.value.length;
    if (change.added) to += n;
    else if (change.removed) from += n;
    else {
      kept.push([from, from + n, to]);
      from += n;
      to += n;
    }
  }
  kept.push([base.length - suffix, base.length, live.length - suffix]);
  const start = anchor.offset;
  const end = anchor.offset + anchor.length;
  let first = -1;
  let last = -1;
  for (const [os, oe, ns] of kept) {
    const lo = Math.max(start, os);
    const hi = Math.min(end, oe);
    if (lo >= hi) continue;
    if (first < 0) first = ns + (lo - os);
    last = ns + (hi - os);
  }
  return first < 0 ? null : { offset: first, length: last - first };
}
