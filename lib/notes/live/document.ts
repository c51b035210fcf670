// The live document of a note: a Yjs Y.Doc whose Y.Text named `content` is the note's markdown.
// Pure functions over Yjs updates: build a document from stored updates, cut an update into pieces
// that each fit a WebSocket message, and turn a REST change of the text into the smallest Yjs delta.
import { diffChars } from 'diff';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/** The Y.Text that holds the note's markdown. */
export const TEXT = 'content';

export const textOf = (doc: Y.Doc): string => doc.getText(TEXT).toString();

/**
 * A document from updates (the compacted state and the updates since, in any order). Never throws:
 * when applying them together fails (a stored update that breaks Yjs), each is applied on its own
 * and one that fails is left out, so one bad update never stops the load of the document, nor of
 * any other note.
 */
export function docOf(updates: Uint8Array[]): Y.Doc {
  try {
    const doc = new Y.Doc({ gc: true });
    doc.transact(() => {
      for (const u of updates) Y.applyUpdate(doc, u);
    });
    return doc;
  } catch {
    const doc = new Y.Doc({ gc: true });
    for (const u of updates) {
      try {
        Y.applyUpdate(doc, u);
      } catch {
        // left out: what it breaks is not part of the document
      }
    }
    return doc;
  }
}

/** What a live document may hold (docs/live.md, "Limits"): checked where an update is accepted. */
export const LIVE_LIMITS = {
  /** Structs (runs of characters, deletions' tombstones) in the whole document. */
  structs: 100_000,
  /** Client ids (editing sessions) that ever wrote into the document. */
  clients: 20_000,
  /** Bytes of what the document holds but cannot place yet (updates waiting for their predecessors). */
  pendingBytes: 64 * 1024,
};

/**
 * Why an update may not enter a live document, by its shape alone (Y.decodeUpdate, nothing
 * applied); undefined when it may. A live document holds the Y.Text `content` and nothing else: no
 * other root type, no nested type (so no depth), characters only (no embeds, formats, sub-documents).
 */
export function shapeRefusal(update: Uint8Array): string | undefined {
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    return 'The update is not a valid Yjs update';
  }
  for (const s of decoded.structs) {
    if (!(s instanceof Y.Item)) continue;
    if (!(s.content instanceof Y.ContentString || s.content instanceof Y.ContentDeleted))
      return `A live document holds only the characters of its Y.Text "${TEXT}"`;
    if (s.parentSub !== null) return `A live document holds only the characters of its Y.Text "${TEXT}"`;
    // Placed by its origins (which must then be characters of the text too) or in a root type.
    if (s.origin === null && s.rightOrigin === null && (s.parent as unknown) !== TEXT)
      return `A live document holds one root type, the Y.Text "${TEXT}"`;
  }
  return undefined;
}

/** The measures of a document's structure that LIVE_LIMITS bounds. */
export function structureOf(doc: Y.Doc): { clients: number; structs: number; pendingBytes: number } {
  const { clients, pendingStructs, pendingDs } = doc.store;
  let structs = 0;
  for (const list of clients.values()) structs += list.length;
  return {
    clients: clients.size,
    structs,
    pendingBytes: (pendingStructs?.update.length ?? 0) + (pendingDs?.length ?? 0),
  };
}

/**
 * Which structural limit the document passes after an update (its measures `before` it);
 * undefined if none. A measure that did not grow is never refused, so a document past a limit (from
 * before it) can still be edited.
 */
export function structureRefusal(doc: Y.Doc, before: ReturnType<typeof structureOf>): string | undefined {
  const now = structureOf(doc);
  const passes = (k: keyof typeof now) => now[k] > LIVE_LIMITS[k] && now[k] > before[k];
  if (passes('clients'))
    return `A live document may have been written by at most ${LIVE_LIMITS.clients} client ids`;
  if (passes('structs')) return `A live document may hold at most ${LIVE_LIMITS.structs} structs`;
  if (passes('pendingBytes'))
    return `A live document may hold at most ${LIVE_LIMITS.pendingBytes} bytes of updates that depend on what it lacks`;
  return undefined;
}

/** Characters of the seed inserted per seeding client, so no stored struct is large (splitUpdate). */
const SEED_PIECE = 8 * 1024;

/** The first state of a note's live document: its REST content. */
export function seedUpdate(content: string): Uint8Array {
  const doc = new Y.Doc();
  const text = doc.getText(TEXT);
  for (let at = 0; at < content.length; at += SEED_PIECE) text.insert(at, content.slice(at, at + SEED_PIECE));
  return Y.encodeStateAsUpdate(doc);
}

/**
 * The Yjs update that changes the document's text from `before` to `after` as a REST write did: the
 * smallest change (diffChars), so untouched text keeps its identity and cursors stay. When live edits
 * not yet seen by the REST writer changed the document meanwhile (its text is not `before`), the
 * change's positions are moved across them (a three-way merge: both sides' edits are kept).
 * Undefined when nothing changes.
 */
export function restChange(doc: Y.Doc, before: string, after: string): Uint8Array | undefined {
  const current = textOf(doc);
  const edits = editsOf(before, after);
  if (edits.length === 0) return undefined;
  const moved = current === before ? edits : rebase(edits, before, current);
  const text = doc.getText(TEXT);
  let update: Uint8Array | undefined;
  const listen = (u: Uint8Array) => {
    update = update ? Y.mergeUpdates([update, u]) : u;
  };
  doc.on('update', listen);
  doc.transact(() => {
    // From the end, so earlier positions stay valid.
    for (const e of [...moved].reverse()) {
      if (e.remove > 0) text.delete(e.at, e.remove);
      if (e.insert) text.insert(e.at, e.insert);
    }
  });
  doc.off('update', listen);
  return update;
}

/** A replacement at `at` (in the old text) of `remove` characters by `insert`. */
interface Edit {
  at: number;
  remove: number;
  insert: string;
}

function editsOf(before: string, after: string): Edit[] {
  const edits: Edit[] = [];
  let at = 0;
  for (const part of diffChars(before, after)) {
    const last = edits.at(-1);
    const open = last && last.at + last.remove === at ? last : undefined;
    if (part.added) {
      if (open) open.insert += part.value;
      else edits.push({ at, remove: 0, insert: part.value });
    } else if (part.removed) {
      if (open) open.remove += part.value.length;
      else edits.push({ at, remove: part.value.length, insert: '' });
      at += part.value.length;
    } else at += part.value.length;
  }
  return edits;
}

/** Moves edits written against `base` onto `current` (base changed by others): positions mapped. */
function rebase(edits: Edit[], base: string, current: string): Edit[] {
  // map[i]: where base's character i is in current (-1 if others removed it); ends map base.length.
  const map = new Array<number>(base.length + 1).fill(-1);
  let b = 0;
  let c = 0;
  for (const part of diffChars(base, current)) {
    if (part.added) c += part.value.length;
    else if (part.removed) b += part.value.length;
    else for (let i = 0; i < part.value.length; i += 1) map[b++] = c++;
  }
  map[base.length] = current.length;
  const after = (i: number) => {
    let j = i;
    while (map[j] === -1) j += 1;
    return map[j];
  };
  const out: Edit[] = [];
  for (const e of edits) {
    const start = after(e.at);
    // Remove only what is still there of the base's range (others may have removed part of it).
    let remove = 0;
    for (let i = e.at; i < e.at + e.remove; i += 1) if (map[i] !== -1) remove = map[i] - start + 1;
    const prev = out.at(-1);
    const from = Math.max(start, prev ? prev.at + prev.remove : 0);
    out.push({ at: from, remove: Math.max(0, remove - (from - start)), insert: e.insert });
  }
  return out;
}

/**
 * Cuts an update into updates of at most about `maxBytes` each (the structs of many clients in one
 * piece, each client's in clock order; a long string is sliced), and the deletions apart, cut too:
 * applied in any order, together they are the update. So no message the server sends passes API
 * Gateway's 128 KB, and a document written by thousands of clients syncs in a few messages.
 */
export function splitUpdate(update: Uint8Array, maxBytes: number): Uint8Array[] {
  if (update.length <= maxBytes) return [update];
  const { structs, ds } = Y.decodeUpdate(update);
  const pieces: Uint8Array[] = [];
  let piece = new Map<number, (Y.Item | Y.GC | Y.Skip)[]>();
  let size = 0;
  const flush = () => {
    if (piece.size) pieces.push(encodeRuns(piece));
    piece = new Map();
    size = 0;
  };
  for (const struct of structs.flatMap((s) => slices(s, Math.floor(maxBytes / 4)))) {
    if (struct instanceof Y.Skip) continue;
    const client = struct.id.client;
    const weight = weightOf(struct);
    let run = piece.get(client);
    const last = run?.at(-1);
    const follows = last && last.id.clock + last.length === struct.id.clock;
    if ((run && !follows) || size + weight + 16 > maxBytes) {
      flush();
      run = undefined;
    }
    if (!run) {
      run = [];
      piece.set(client, run);
      size += 16;
    }
    run.push(struct);
    size += weight;
  }
  flush();
  // The delete set alone, in pieces of at most about maxBytes (a range is at most 20 bytes).
  const ranges: [number, number, number][] = [];
  for (const [client, items] of ds.clients) for (const d of items) ranges.push([client, d.clock, d.len]);
  const perPiece = Math.max(1, Math.floor(maxBytes / 32));
  for (let at = 0; at < ranges.length; at += perPiece)
    pieces.push(encodeDeletes(ranges.slice(at, at + perPiece)));
  return pieces;
}

const weightOf = (s: Y.Item | Y.GC | Y.Skip): number =>
  s instanceof Y.Item && s.content instanceof Y.ContentString ? s.content.str.length * 3 + 32 : 32;

/** A long string item as items of at most `chars` characters (as Yjs itself splits an item). */
function slices(s: Y.Item | Y.GC | Y.Skip, chars: number): (Y.Item | Y.GC | Y.Skip)[] {
  if (!(s instanceof Y.Item) || !(s.content instanceof Y.ContentString) || s.length <= chars) return [s];
  const str = s.content.str;
  const out: Y.Item[] = [];
  let off = 0;
  while (off < str.length) {
    let end = Math.min(str.length, off + chars);
    // Never between the two halves of a surrogate pair.
    if (end < str.length && /[\uD800-\uDBFF]/.test(str[end - 1])) end -= 1;
    const { client, clock } = s.id;
    out.push(
      new Y.Item(
        Y.createID(client, clock + off),
        null,
        off === 0 ? s.origin : Y.createID(client, clock + off - 1),
        null,
        s.rightOrigin,
        s.parent,
        s.parentSub,
        new Y.ContentString(str.slice(off, end)),
      ),
    );
    off = end;
  }
  return out;
}

/** Each client's consecutive structs as one V1 update (as Yjs writes them) with no deletions. */
function encodeRuns(runs: Map<number, (Y.Item | Y.GC | Y.Skip)[]>): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, runs.size);
  // Higher clients first, as Yjs writes them.
  for (const [client, run] of [...runs].sort((a, b) => b[0] - a[0])) {
    encoding.writeVarUint(encoder.restEncoder, run.length);
    encoder.writeClient(client);
    encoding.writeVarUint(encoder.restEncoder, run[0].id.clock);
    for (const s of run) s.write(encoder, 0);
  }
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}

/** Deletions (client, clock, length) as a V1 update with no structs. */
function encodeDeletes(ranges: [number, number, number][]): Uint8Array {
  const byClient = new Map<number, [number, number][]>();
  for (const [client, clock, len] of ranges) {
    const list = byClient.get(client) ?? [];
    list.push([clock, len]);
    byClient.set(client, list);
  }
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, 0);
  encoding.writeVarUint(encoder.restEncoder, byClient.size);
  for (const [client, list] of [...byClient].sort((a, b) => b[0] - a[0])) {
    encoder.resetDsCurVal();
    encoding.writeVarUint(encoder.restEncoder, client);
    encoding.writeVarUint(encoder.restEncoder, list.length);
    for (const [clock, len] of list) {
      encoder.writeDsClock(clock);
      encoder.writeDsLen(len);
    }
  }
  return encoder.toUint8Array();
}

/**
 * The UTF-8 bytes an update inserts into the text: the most it can grow the content, whatever it
 * is merged with (its deletions may meet text another writer deleted already; its inserts add).
 */
export function insertedBytes(update: Uint8Array): number {
  let bytes = 0;
  for (const s of Y.decodeUpdate(update).structs)
    if (s instanceof Y.Item && s.content instanceof Y.ContentString)
      bytes += Buffer.byteLength(s.content.str, 'utf8');
  return bytes;
}
