// The live document of a note: a Yjs Y.Doc whose Y.Text named `content` is the note's markdown.
// Pure functions over Yjs updates: build a document from stored updates, cut an update into pieces
// that each fit a WebSocket message, and turn a REST change of the text into the smallest Yjs delta.
import { diffChars } from 'diff';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/** The Y.Text that holds the note's markdown. */
export const TEXT = 'content';

export const textOf = (doc: Y.Doc): string => doc.getText(TEXT).toString();

/** A document from updates (the compacted state and the updates since, in any order). */
export function docOf(updates: Uint8Array[]): Y.Doc {
  const doc = new Y.Doc({ gc: true });
  doc.transact(() => {
    for (const u of updates) Y.applyUpdate(doc, u);
  });
  return doc;
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
 * Cuts an update into updates of at most about `maxBytes` each (the structs of one client run in
 * clock order; a long string is sliced), and the deletions apart: applied in any order, together
 * they are the update. So no message the server sends passes API Gateway's 128 KB.
 */
export function splitUpdate(update: Uint8Array, maxBytes: number): Uint8Array[] {
  if (update.length <= maxBytes) return [update];
  const { structs } = Y.decodeUpdate(update);
  const pieces: Uint8Array[] = [];
  let run: (Y.Item | Y.GC | Y.Skip)[] = [];
  let size = 0;
  const flush = () => {
    if (run.length) pieces.push(encodeRun(run));
    run = [];
    size = 0;
  };
  for (const struct of structs.flatMap((s) => slices(s, Math.floor(maxBytes / 4)))) {
    const client = struct.id.client;
    const weight = weightOf(struct);
    const last = run.at(-1);
    const follows = last && last.id.client === client && last.id.clock + last.length === struct.id.clock;
    if (!follows || size + weight > maxBytes) flush();
    run.push(struct);
    size += weight;
  }
  flush();
  // The delete set alone: everything the update holds is in its own state vector.
  pieces.push(Y.diffUpdate(update, Y.encodeStateVectorFromUpdate(update)));
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

/** One client's consecutive structs as a V1 update (as Yjs writes them) with no deletions. */
function encodeRun(run: (Y.Item | Y.GC | Y.Skip)[]): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, 1);
  encoding.writeVarUint(encoder.restEncoder, run.length);
  encoder.writeClient(run[0].id.client);
  encoding.writeVarUint(encoder.restEncoder, run[0].id.clock);
  for (const s of run) s.write(encoder, 0);
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}
