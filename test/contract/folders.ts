// The contract of the folder store port (lib/notes/folders/folders.ts): the in-memory and DynamoDB adapters
// pass this same suite. Structural writes (create, a move, delete) are conditional on the tree's
// version; a folder holding notes is not deleted.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NoteOwnerKey } from '../../lib/data/keys.ts';
import type { FolderRecord, FolderStore } from '../../lib/notes/folders/folders.ts';

export interface FolderFixture {
  store: FolderStore;
  /** A note now sits in the folder (what the notes store's own transaction does: noteCount +1). */
  placeNote(owner: NoteOwnerKey, folderId: string): Promise<void>;
}

const folder = (fields: Partial<FolderRecord> = {}): FolderRecord => ({
  id: randomUUID(),
  name: 'F',
  description: null,
  icon: null,
  color: null,
  parentFolderId: null,
  createdAt: 1,
  updatedAt: 1,
  noteCount: 0,
  ...fields,
});

export function foldersContract(name: string, fixture: () => FolderFixture): void {
  describe(`${name}: folder store`, () => {
    it('an empty workspace is version 0; each create moves the version on and reads back', async () => {
      const { store } = fixture();
      const owner = { userId: randomUUID() };
      expect(await store.tree(owner)).toEqual({ folders: [], version: 0, order: undefined });
      const a = folder();
      const b = folder({ parentFolderId: a.id, icon: '📁' });
      expect(await store.create(owner, a, 0)).toBe(true);
      expect(await store.create(owner, b, 1)).toBe(true);
      const tree = await store.tree(owner);
      expect(tree.version).toBe(2);
      expect(tree.folders.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [a, b].sort((x, y) => x.id.localeCompare(y.id)),
      );
      expect(await store.get(owner, b.id)).toEqual(b);
      expect(await store.get(owner, randomUUID())).toBeUndefined();
      expect(await store.get({ teamPath: `t-${randomUUID()}` }, a.id)).toBeUndefined();
    });

    it('refuses a create at a stale version, writing nothing', async () => {
      const { store } = fixture();
      const owner = { teamPath: `t-${randomUUID()}` };
      expect(await store.create(owner, folder(), 0)).toBe(true);
      const late = folder();
      expect(await store.create(owner, late, 0)).toBe(false);
      expect(await store.get(owner, late.id)).toBeUndefined();
      expect((await store.tree(owner)).version).toBe(1);
    });

    it('updates fields without the version (never the parent), and moves with it', async () => {
      const { store } = fixture();
      const owner = { userId: randomUUID() };
      const [a, b] = [folder(), folder()];
      await store.create(owner, a, 0);
      await store.create(owner, b, 1);
      expect(await store.update(owner, b.id, { name: 'N', parentFolderId: a.id, updatedAt: 5 })).toBe(true);
      expect(await store.get(owner, b.id)).toEqual({ ...b, name: 'N', updatedAt: 5 });
      expect((await store.tree(owner)).version).toBe(2);
      expect(await store.update(owner, b.id, { parentFolderId: a.id, updatedAt: 6 }, 1)).toBe(false);
      expect(await store.update(owner, b.id, { parentFolderId: a.id, updatedAt: 6 }, 2)).toBe(true);
      expect(await store.get(owner, b.id)).toMatchObject({ parentFolderId: a.id, updatedAt: 6 });
      expect((await store.tree(owner)).version).toBe(3);
      expect(await store.update(owner, randomUUID(), { name: 'X', updatedAt: 7 })).toBe(false);
    });

    it('deletes an empty folder at the current version; refuses a stale version or one holding notes', async () => {
      const { store, placeNote } = fixture();
      const owner = { userId: randomUUID() };
      const [empty, full] = [folder(), folder()];
      await store.create(owner, empty, 0);
      await store.create(owner, full, 1);
      await placeNote(owner, full.id);
      expect(await store.delete(owner, empty.id, 1)).toBe('changed');
      expect(await store.delete(owner, full.id, 2)).toBe('not-empty');
      expect(await store.get(owner, full.id)).toMatchObject({ noteCount: 1 });
      expect(await store.delete(owner, empty.id, 2)).toBe('deleted');
      expect(await store.get(owner, empty.id)).toBeUndefined();
      expect((await store.tree(owner)).version).toBe(3);
    });

    it("keeps each user's order of a workspace apart from the folders and the version", async () => {
      const { store } = fixture();
      const owner = { teamPath: `t-${randomUUID()}` };
      const a = folder();
      await store.create(owner, a, 0);
      const [me, you] = [randomUUID(), randomUUID()];
      await store.putOrder(owner, me, { root: [a.id] });
      await store.putOrder(owner, you, { root: [] });
      await store.putOrder(owner, me, { root: [a.id], [a.id]: [] });
      expect(await store.tree(owner, me)).toEqual({
        folders: [a],
        version: 1,
        order: { root: [a.id], [a.id]: [] },
      });
      expect((await store.tree(owner, you)).order).toEqual({ root: [] });
      expect((await store.tree(owner, randomUUID())).order).toBeUndefined();
    });
  });
}
