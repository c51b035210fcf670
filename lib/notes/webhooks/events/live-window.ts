// Live typing's note.updated, at most once per note per window (docs/live.md, "One note, two
// doors"). Live editing writes a note about once a second while people type (sync-live's batches);
// each write is a live write (NoteRecord.liveChangedAt changed). The wall clock is cut into windows
// of LIVE_WINDOW_MS; the first live write of a note in a window opens it (the router sends a check
// due at the window's end, with the note as it was before that write) and the others wait. At the
// window's end the check reads the note and routes one note.updated from the note before the
// window to the note now: the final content, `changes` over the whole window. A check that finds a
// live write of a later window leaves the event to that window's check, and hands it its `before`
// (the carried window, one item per note, written only then), so the later event's `changes` name
// what the skipped windows changed too. A check sent twice (a stream batch retried) has the same
// event id.
import type { NoteRecord } from '../../kernel/model.ts';
import { isLiveWrite, type NoteState, type TableChange } from './catalogue.ts';

export const LIVE_WINDOW_MS = 5_000;

/** A window of a note's live writes, closed by a check at `endsAt`. */
export interface LiveWindow {
  shortId: string;
  /** Epoch ms: the check is due then; a live write after it belongs to a later window. */
  endsAt: number;
  /** The note before the window's first live write (what `changes` is counted from). */
  before: NoteRecord;
}

const windowOf = (at: number) => Math.floor(at / LIVE_WINDOW_MS);

/** The window a change opens: a note's first live write in it. */
export function windowOpenedBy(change: TableChange): LiveWindow | undefined {
  if (change.kind !== 'note' || change.closesWindow || !isLiveWrite(change.before, change.after)) return;
  const at = change.after!.note.liveChangedAt!;
  const last = change.before!.note.liveChangedAt;
  if (last !== undefined && windowOf(last) === windowOf(at)) return;
  return {
    shortId: change.after!.note.shortId,
    endsAt: (windowOf(at) + 1) * LIVE_WINDOW_MS,
    before: change.before!.note,
  };
}

/** Seconds until a window's check is due (SQS's DelaySeconds: whole seconds, at most 900). */
export const delayOf = (w: LiveWindow, now: number) =>
  Math.min(900, Math.max(0, Math.ceil((w.endsAt - now) / 1000)));

/** Whether the window's check leaves its event to a later window's (a live write of that one is in). */
export const handedOn = (w: LiveWindow, now: NoteState | undefined): boolean =>
  now !== undefined && now.deletedAt === undefined && (now.note.liveChangedAt ?? 0) >= w.endsAt;

/** The change that closes a window: from the note before it to the note now (undefined: nothing to route). */
export function closingChange(w: LiveWindow, now: NoteState | undefined): TableChange | undefined {
  if (!now || now.deletedAt !== undefined) return; // its note.deleted says the rest
  if ((now.note.liveChangedAt ?? 0) >= w.endsAt) return; // a later window's check routes it
  return {
    kind: 'note',
    id: `msg_live-${w.shortId}-${w.endsAt}`,
    before: { note: w.before },
    after: now,
    closesWindow: true,
  };
}
