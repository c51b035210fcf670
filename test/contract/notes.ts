// The contract of the Notes store: the in-memory and DynamoDB adapters pass this same suite.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '../../lib/domain/errors.ts';
import { noteIdOf, shortIdOf, type NoteRecord } from '../../lib/notes/kernel/model.ts';
import type { NotesStore } from '../../lib/notes/kernel/ports.ts';

const note = (ownerId: string, over: Partial<NoteRecord> = {}): NoteRecord => {
  const id = noteIdOf(randomBytes(16));
  return {
    id,
    shortId: shortIdOf(id),
    ownerId,
    userPath: `p-${ownerId}`,
    teamPath: null,
    title: 'T',
    explicitTitle: null,
    tags: [],
    description: '',
    createdAt: 1,
    lastChangedAt: 1,
    titleUpdatedAt: null,
    tagsUpdatedAt: null,
    lastChangeUser: null,
    publishType: 'edit',
    publishedAt: null,
    permalink: null,
    readPermission: 'owner',
    writePermission: 'owner',
    commentPermission: 'signed_in_users',
    suggestEditPermission: 'signed_in_users',
    parentFolderId: null,
    origin: null,
    noteFeatures: null,
    version: 1,
    ...over,
  };
};

export function notesContract(name: string, store: () => NotesStore): void {
  describe(`${name}: notes`, () => {
    it('reads back a note with its content and the creator as its only visitor', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u);
      await s.createNote(n, '# hi', u);
      const got = await s.getNote(n.shortId, { visitors: true });
      expect(got).toEqual({
        note: n,
        content: '# hi',
        visitors: [{ userId: u, visitedAt: expect.any(Number) }],
      });
      // No read counted yet (the creator's entry is written with the note).
      expect(got?.visitSeq).toBeUndefined();
    });

    it('saves the next version; a stale save is Conflict(version)', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u);
      await s.createNote(n, 'a', u);
      const read = (await s.getNote(n.shortId))!;
      await s.saveNote(read, { ...n, title: 'v2', version: 2 }, 'b', u);
      await expect(s.saveNote(read, { ...n, title: 'lost', version: 2 }, undefined, u)).rejects.toMatchObject(
        { reason: 'version' },
      );
      expect(await s.getNote(n.shortId)).toMatchObject({ note: { title: 'v2' }, content: 'b' });
    });

    it("refuses another note's permalink of the same owner with Conflict(permalink)", async () => {
      const s = store();
      const u = randomUUID();
      await s.createNote(note(u, { permalink: 'same' }), '', u);
      const second = s.createNote(note(u, { permalink: 'same' }), '', u);
      await expect(second).rejects.toBeInstanceOf(Conflict);
      await expect(second).rejects.toMatchObject({ reason: 'permalink' });
      await s.createNote(note(randomUUID(), { permalink: 'same' }), '', u);
    });

    it('frees a permalink when the note moves to another one', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u, { permalink: 'old' });
      await s.createNote(n, '', u);
      await s.saveNote((await s.getNote(n.shortId))!, { ...n, permalink: 'new', version: 2 }, undefined, u);
      await s.createNote(note(u, { permalink: 'old' }), '', u);
    });

    it('records visits in history, newest first; a deleted note cannot be visited', async () => {
      const s = store();
      const [u, reader] = [randomUUID(), randomUUID()];
      const [a, b] = [note(u), note(u)];
      await s.createNote(a, '', u);
      await s.createNote(b, '', u);
      await s.recordVisit(a, reader);
      await new Promise((r) => setTimeout(r, 5));
      await s.recordVisit(b, reader);
      expect((await s.history(reader, 10)).map((n) => n.id)).toEqual([b.id, a.id]);
      await s.deleteNote((await s.getNote(a.shortId, { visitors: true }))!);
      await expect(s.recordVisit(a, reader)).rejects.toBeInstanceOf(NotFound);
    });

    it('refuses to delete a note visited since it was read (Conflict(version))', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u);
      await s.createNote(n, '', u);
      const read = (await s.getNote(n.shortId, { visitors: true }))!;
      await s.recordVisit(n, randomUUID());
      await expect(s.deleteNote(read)).rejects.toMatchObject({ reason: 'version' });
    });

    it('content changes read back one after another; of two saves from one read, one wins whole', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u);
      await s.createNote(n, 'v1', u);
      for (const [version, content] of [
        [2, 'v2'],
        [3, 'v3'],
        [4, 'v4'],
      ] as const) {
        await s.saveNote((await s.getNote(n.shortId))!, { ...n, version }, content, u);
        expect(await s.getNote(n.shortId)).toMatchObject({ note: { version }, content });
      }
      // A metadata-only save keeps the content where it is.
      await s.saveNote((await s.getNote(n.shortId))!, { ...n, title: 'T5', version: 5 }, undefined, u);
      const read = (await s.getNote(n.shortId))!;
      expect(read).toMatchObject({ note: { title: 'T5' }, content: 'v4' });
      const [first, second] = await Promise.allSettled([
        s.saveNote(read, { ...n, version: 6 }, 'first', u),
        s.saveNote(read, { ...n, version: 6 }, 'second', u),
      ]);
      const won = [first, second].filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect([first, second].find((r) => r.status === 'rejected')).toMatchObject({
        reason: { reason: 'version' },
      });
      expect((await s.getNote(n.shortId))?.content).toBe(first.status === 'fulfilled' ? 'first' : 'second');
    });

    it('marks a note live; a save read before the mark is Conflict(version), then keeps the mark', async () => {
      const s = store();
      const u = randomUUID();
      const n = note(u);
      await s.createNote(n, 'a', u);
      const before = (await s.getNote(n.shortId))!;
      expect(before.note.live).toBeUndefined();
      await s.markLive(n.shortId);
      await expect(s.saveNote(before, { ...n, version: 2 }, 'b', u)).rejects.toMatchObject({
        reason: 'version',
      });
      const marked = (await s.getNote(n.shortId))!;
      expect(marked.note.live).toBe(true);
      await s.saveNote(marked, { ...marked.note, version: 2 }, 'b', u);
      expect(await s.getNote(n.shortId)).toMatchObject({ note: { live: true, version: 2 }, content: 'b' });
      await expect(s.markLive(note(u).shortId)).rejects.toBeInstanceOf(NotFound);
    });

    it("lists an owner's notes, most recently changed first", async () => {
      const s = store();
      const u = randomUUID();
      const [old, recent] = [note(u, { lastChangedAt: 10 }), note(u, { lastChangedAt: 20 })];
      await s.createNote(old, '', u);
      await s.createNote(recent, '', u);
      await s.createNote(note(randomUUID()), '', u);
      expect((await s.listNotes({ userId: u })).map((n) => n.id)).toEqual([recent.id, old.id]);
    });
  });
}
