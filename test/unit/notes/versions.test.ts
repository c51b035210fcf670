// Versions over in-memory adapters and a fixed clock: the coalescing window, the retention of
// system versions, authorship; and anchors mapped through edits (lib/notes/revisions/anchors.ts).
import { describe, expect, it } from 'vitest';
import { memoryVersionStore } from '../../../lib/notes/revisions/adapters/memory-versions.ts';
import {
  excerptOf,
  followAnchor,
  followRuns,
  fromDeltas,
  MAX_EXCERPT_CHARS,
  runsBetween,
  snapToCodePoints,
  toDeltas,
} from '../../../lib/notes/revisions/anchors.ts';
import {
  SYSTEM_VERSION_RETENTION_DAYS,
  VERSION_WINDOW_MS,
  VersionService,
} from '../../../lib/notes/revisions/versions.ts';
import { notesWorld } from './fixture.ts';
import { compareVersions } from '../../../lib/notes/revisions/compare.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function world() {
  const store = memoryVersionStore();
  let versions: VersionService | undefined;
  // The notes service sees its content changes through the versions (as lib/notes/wiring.ts wires them).
  const w = await notesWorld({ history: { changeContent: (...args) => versions!.changeContent(...args) } });
  const users = async (id: string) => (await w.identity.getUserWithTeams(id))!.user;
  versions = new VersionService(store, (userId, ref) => w.notes.openNote(userId, ref), users, w.clock);
  const note = await w.notes.createNote(w.owner, {
    content: 'start',
    writePermission: 'signed_in',
    readPermission: 'signed_in',
  });
  const change = async (userId: string, content: string) =>
    w.notes.updateNote(userId, note.note.id, { content });
  return { ...w, versions, note, change, store };
}

describe('system versions', () => {
  it('coalesce within the window and start anew after it', async () => {
    const w = await world();
    await w.change(w.owner, 'a');
    w.clock.advance(VERSION_WINDOW_MS - 1);
    await w.change(w.other, 'ab');
    let list = await w.versions.list(w.owner, w.note.note.id, {});
    expect(list.total).toBe(1);
    expect(list.versions[0].authorship.map((a) => a.user_id)).toEqual([w.owner, w.other]);
    expect((await w.versions.get(w.owner, w.note.note.id, list.versions[0].id)).content).toBe('ab');
    w.clock.advance(1);
    await w.change(w.other, 'abc');
    list = await w.versions.list(w.owner, w.note.note.id, {});
    expect(list.total).toBe(2);
    expect(list.versions[0].authorship.map((a) => a.user_id)).toEqual([w.other]);
    // The newest shares the live content; the one before kept its own as the window closed.
    const contents = async () =>
      Promise.all(
        list.versions.map(async (v) => (await w.versions.get(w.owner, w.note.note.id, v.id)).content),
      );
    expect(await contents()).toEqual(['abc', 'ab']);
    await w.change(w.owner, 'abcd');
    expect(await contents()).toEqual(['abcd', 'ab']);
  });

  it('a shared version named keeps the content it held, and the next change starts a new one', async () => {
    const w = await world();
    await w.change(w.owner, 'a');
    const named = await w.versions.create(w.owner, w.note.note.id, { name: 'keep' });
    await w.change(w.owner, 'ab');
    const list = (await w.versions.list(w.owner, w.note.note.id, {})).versions;
    expect(list.map((v) => v.nameSource)).toEqual(['system', 'user']);
    expect((await w.versions.get(w.owner, w.note.note.id, named.id)).content).toBe('a');
    expect((await w.versions.get(w.owner, w.note.note.id, list[0].id)).content).toBe('ab');
  });

  it('the same content again records nothing', async () => {
    const w = await world();
    await w.change(w.owner, 'a');
    w.clock.advance(VERSION_WINDOW_MS * 2);
    await w.change(w.owner, 'a');
    expect((await w.versions.list(w.owner, w.note.note.id, {})).total).toBe(1);
  });

  it(`expire after ${SYSTEM_VERSION_RETENTION_DAYS} days unless named`, async () => {
    const w = await world();
    await w.change(w.owner, 'a');
    w.clock.advance(VERSION_WINDOW_MS);
    await w.change(w.owner, 'b');
    const [newest, oldest] = (await w.versions.list(w.owner, w.note.note.id, {})).versions;
    await w.versions.create(w.owner, w.note.note.id, { name: 'keep', base: `version:${oldest.id}` });
    w.clock.advance(SYSTEM_VERSION_RETENTION_DAYS * DAY_MS);
    const left = (await w.versions.list(w.owner, w.note.note.id, {})).versions;
    expect(left.map((v) => v.id)).toEqual([oldest.id]);
    await expect(w.versions.get(w.owner, w.note.note.id, newest.id)).rejects.toThrow('no such version');
  });

  it('a version whose content is gone is listed as unavailable and cannot be compared', async () => {
    const w = await world();
    await w.change(w.owner, 'a');
    w.clock.advance(VERSION_WINDOW_MS);
    await w.change(w.owner, 'b');
    // The older version has content of its own (the newest shares the note's).
    const [, v] = (await w.versions.list(w.owner, w.note.note.id, {})).versions;
    w.store.dropContent(w.note.note.shortId, v.id);
    expect((await w.versions.get(w.owner, w.note.note.id, v.id)).content).toBeUndefined();
    await expect(
      compareVersions(w.versions, w.owner, w.note.note.id, `version:${v.id}`, 'note_content'),
    ).rejects.toMatchObject({
      details: { error_code: 'version_content_unavailable' },
    });
  });
});

describe('anchors through edits', () => {
  const base = 'The quick brown fox jumps';
  const fox = { offset: 16, length: 3 };
  it('shift with text inserted or deleted before them, and stay with text after them', () => {
    expect(followAnchor(base, `Oh, ${base}`, fox)).toEqual({ offset: 20, length: 3 });
    expect(followAnchor(base, 'The brown fox jumps', fox)).toEqual({ offset: 10, length: 3 });
    expect(followAnchor(base, `${base} high`, fox)).toEqual(fox);
    expect(followAnchor(base, base, fox)).toBe(fox);
  });
  it('span what survives of the anchored text, and are null once all of it is gone', () => {
    expect(followAnchor(base, 'The quick brown fx jumps', fox)).toEqual({ offset: 16, length: 2 });
    expect(followAnchor(base, 'The quick brown f-o-x jumps', fox)).toEqual({ offset: 16, length: 5 });
    expect(followAnchor(base, 'The quick brown cat jumps', fox)).toBeNull();
    expect(followAnchor(base, '', fox)).toBeNull();
  });
  it('map through runs computed once, which survive storage as gaps and lengths', () => {
    const live = 'Oh, The quick brown f-o-x jumps high';
    const runs = runsBetween(base, live);
    expect(fromDeltas(toDeltas(runs))).toEqual(runs);
    expect(followRuns(runs, fox)).toEqual(followAnchor(base, live, fox));
    expect(followRuns(runs, { offset: 4, length: 5 })).toEqual({ offset: 8, length: 5 });
  });
  it('with no time to diff, keep only the unchanged beginning and end', () => {
    const live = 'The quick brown cat fox dog jumps';
    expect(followRuns(runsBetween(base, live, 0), { offset: 0, length: 3 })).toEqual({
      offset: 0,
      length: 3,
    });
    expect(followRuns(runsBetween(base, live, 0), fox)).toBeNull();
    expect(followRuns(runsBetween(base, live), fox)).toEqual({ offset: 20, length: 3 });
  });
  it('widen to whole code points, and give an excerpt of at most MAX_EXCERPT_CHARS characters', () => {
    const text = 'a😀b😀';
    expect(snapToCodePoints(text, { offset: 2, length: 1 })).toEqual({ offset: 1, length: 2 });
    expect(snapToCodePoints(text, { offset: 0, length: 2 })).toEqual({ offset: 0, length: 3 });
    expect(snapToCodePoints(text, { offset: 4, length: 1 })).toEqual({ offset: 4, length: 2 });
    expect(snapToCodePoints(text, { offset: 1, length: 2 })).toEqual({ offset: 1, length: 2 });
    expect(excerptOf('short')).toEqual({ excerpt: 'short', truncated: false });
    const emoji = '😀'.repeat(MAX_EXCERPT_CHARS + 1);
    // Cut short: its first MAX_EXCERPT_CHARS - 1 characters and `…`, so still MAX_EXCERPT_CHARS.
    const cut = `${'😀'.repeat(MAX_EXCERPT_CHARS - 1)}…`;
    expect(excerptOf(emoji)).toEqual({ excerpt: cut, truncated: true });
    expect(excerptOf(emoji.slice(0, -2))).toEqual({ excerpt: emoji.slice(0, -2), truncated: false });
    // Shown again (a stored excerpt): unchanged, and a text that ends in `…` itself is not "cut".
    expect(excerptOf(cut, true)).toEqual({ excerpt: cut, truncated: true });
    expect(excerptOf('wait…')).toEqual({ excerpt: 'wait…', truncated: false });
    // Stored cut before the mark existed (MAX_EXCERPT_CHARS characters, `excerptTruncated` kept): marked.
    expect(excerptOf(emoji.slice(0, -2), true)).toEqual({ excerpt: cut, truncated: true });
  });
  it('survive an edit elsewhere in a large document', () => {
    const big = `${'lorem ipsum '.repeat(20_000)}ANCHOR${' dolor sit'.repeat(20_000)}`;
    const at = big.indexOf('ANCHOR');
    const edited = `intro\n${big.replace('dolor sit dolor', 'dolor, sit dolor')}`;
    expect(followAnchor(big, edited, { offset: at, length: 6 })).toEqual({ offset: at + 6, length: 6 });
  });
});
