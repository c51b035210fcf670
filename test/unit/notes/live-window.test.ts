// Live typing's note.updated (lib/notes/webhooks/events/live-window.ts): live writes of a note
// wait for their window's end, which routes one note.updated from the note before the window to
// the note then; a REST write is still an event at once. The service writes, the router reads the
// changes as the stream would show them, a window's check reads the note as it is at its end.
import { describe, expect, it } from 'vitest';
import type { NoteState, TableChange } from '../../../lib/notes/webhooks/events/catalogue.ts';
import { delayOf, LIVE_WINDOW_MS, type LiveWindow } from '../../../lib/notes/webhooks/events/live-window.ts';
import {
  closeWindows,
  type DeliveryJob,
  routeChanges,
  type WindowPorts,
} from '../../../lib/notes/webhooks/events/router.ts';
import { webhookRecord } from '../../support/note-record.ts';
import { notesWorld, START_MS } from './fixture.ts';

/** A note of the owner's, written through the service; every write as the stream shows it. */
async function typing() {
  const w = await notesWorld();
  const created = await w.notes.createNote(w.owner, { content: '# Live\n' });
  const shortId = created.note.shortId;
  let last: NoteState = { note: (await w.store.getNote(shortId))!.note };
  const changes: TableChange[] = [];
  /** Every state the note had, with its time: a check reads the one current at its time. */
  const states: { at: number; state: NoteState }[] = [{ at: w.clock.now(), state: last }];
  const record = async () => {
    const now: NoteState = { note: (await w.store.getNote(shortId))!.note };
    changes.push({ kind: 'note', id: `e${changes.length}`, before: last, after: now });
    states.push({ at: w.clock.now(), state: now });
    last = now;
  };
  const jobs: DeliveryJob[] = [];
  const windows: LiveWindow[] = [];
  let checkAt = 0;
  let carried: LiveWindow | undefined;
  const ports: WindowPorts = {
    hooksOf: async () => [webhookRecord()],
    foldersOf: async () => [],
    userPathOf: async () => 'owner',
    noteOf: async () => undefined,
    enqueue: async (j) => void jobs.push(...j),
    openWindows: async (ws) => void windows.push(...ws),
    currentNote: async () => states.filter((s) => s.at <= checkAt).at(-1)?.state,
    carried: async () => carried,
    carry: async (w) => {
      if (!carried || carried.endsAt > w.endsAt) carried = w;
    },
    dropCarried: async (_shortId, endsAt) => {
      if (carried?.endsAt === endsAt) carried = undefined;
    },
  };
  return {
    w,
    shortId,
    jobs,
    windows,
    /** A live write at `at` ms after the start. */
    live: async (at: number, content: string) => {
      w.clock.set(START_MS + at);
      expect(await w.notes.saveLiveContent(shortId, content, w.owner)).toBe(true);
      await record();
    },
    /** The note goes to the trash at `at` (the state a later check reads). */
    trash: (at: number) =>
      void states.push({ at: START_MS + at, state: { ...last, deletedAt: START_MS + at } }),
    rest: async (at: number, content: string) => {
      w.clock.set(START_MS + at);
      await w.notes.updateNote(w.owner, shortId, { content });
      await record();
    },
    /** The router over the changes so far (one stream batch). */
    route: async () => routeChanges(changes.splice(0), ports),
    /** The check of `window` run at `at` ms after the start. */
    close: async (window: LiveWindow, at: number) => {
      checkAt = START_MS + at;
      return closeWindows([window], ports);
    },
    updates: () => jobs.map((j) => JSON.parse(j.body)).filter((e) => e.type === 'note.updated'),
    versionAt: (at: number) => states.filter((s) => s.at <= START_MS + at).at(-1)!.state.note.version,
  };
}

describe("live typing's note.updated: one per note per window, the last at the final content", () => {
  it('live writes send no event at once; the first of each window opens it, due at its end', async () => {
    const t = await typing();
    for (let at = 200; at < 12_000; at += 1000) await t.live(at, `# Live\n${at}`);
    await t.route();
    expect(t.jobs).toEqual([]);
    expect(t.windows.map((w) => w.endsAt - START_MS)).toEqual([5000, 10_000, 15_000]);
    expect(t.windows.every((w) => w.shortId === t.shortId)).toBe(true);
  });

  it("each window's check routes one note.updated: changes over the whole window, the note as it is then", async () => {
    const t = await typing();
    await t.live(300, '# Renamed\nfirst words');
    await t.live(1300, '# Renamed\nfirst words, more');
    await t.live(6300, '# Renamed\nfirst words, more, and the last');
    await t.route();
    const [first, second] = t.windows;
    expect(await t.close(first, 5100)).toBe(1);
    expect(await t.close(second, 10_100)).toBe(1);
    const [a, b] = t.updates();
    expect(a).toMatchObject({
      id: `msg_live-${t.shortId}-${START_MS + 5000}`,
      data: { changes: ['content', 'title'] },
    });
    expect(a.data.note).toMatchObject({ title: 'Renamed', lastChangedAt: START_MS + 1300 });
    expect(b.data.changes).toEqual(['content']);
    expect(b.data.note.lastChangedAt).toBe(START_MS + 6300); // the final write
  });

  it('a check that runs after a later window began leaves the event to that window: never two for one text', async () => {
    const t = await typing();
    await t.live(300, '# Live\none');
    await t.live(5300, '# Live\ntwo');
    await t.route();
    const [first, second] = t.windows;
    expect(await t.close(first, 5400)).toBe(0); // late: window two's write is in
    expect(await t.close(second, 10_050)).toBe(1);
    expect(t.updates()).toHaveLength(1);
  });

  it("a skipped window's changes are not lost: the next window's event names them (a live title rename)", async () => {
    const t = await typing();
    await t.live(300, '# Renamed\none');
    await t.live(5300, '# Renamed\ntwo');
    await t.live(10_300, '# Renamed\nthree');
    await t.route();
    const [first, second, third] = t.windows;
    expect(await t.close(first, 5400)).toBe(0); // window two's write is in
    expect(await t.close(second, 10_400)).toBe(0); // and window three's
    expect(await t.close(third, 15_050)).toBe(1);
    const [only] = t.updates();
    expect(only.id).toBe(`msg_live-${t.shortId}-${START_MS + 15_000}`);
    expect(only.data.changes).toEqual(['content', 'title']);
    // Carried once: the window after it counts from its own start again.
    await t.live(15_300, '# Renamed\nfour');
    await t.route();
    expect(await t.close(t.windows[3], 20_050)).toBe(1);
    expect(t.updates()[1].data.changes).toEqual(['content']);
  });

  it('a REST write is an event at once, within a window too; a trashed note closes no window', async () => {
    const t = await typing();
    await t.live(300, '# Live\ntyped');
    await t.rest(800, '# Live\npatched');
    await t.route();
    expect(t.updates().map((e) => e.data.changes)).toEqual([['content']]);
    expect(t.windows).toHaveLength(1);
    t.trash(900);
    expect(await t.close(t.windows[0], 5100)).toBe(0); // its note.deleted says the rest
  });

  it("a check is delayed to its window's end, in SQS's whole seconds", () => {
    const w = { shortId: 's', endsAt: 10_000, before: {} as never };
    expect(delayOf(w, 5_001)).toBe(5);
    expect(delayOf(w, 9_999)).toBe(1);
    expect(delayOf(w, 12_000)).toBe(0);
    expect(LIVE_WINDOW_MS).toBeGreaterThanOrEqual(3000);
  });
});
