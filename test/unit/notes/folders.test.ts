// Folder rules against the in-memory store: nesting limit, cycles, non-empty deletes, ordering,
// team workspaces and the folderPaths of notes.
import { describe, expect, it } from 'vitest';
import { systemIds } from '../../../lib/domain/ids.ts';
import { MemoryFolderStore } from '../../../lib/notes/folders/adapters/memory-folders.ts';
import { FolderService, MAX_FOLDER_DEPTH, ROOT } from '../../../lib/notes/folders/folders.ts';
import type { NoteRecord } from '../../../lib/notes/kernel/model.ts';

const members = new Map([['crew', new Set(['alice'])]]);
const directory = {
  isMember: async (team: string, user: string) => members.get(team)?.has(user) ?? false,
  getTeam: async (team: string) => (members.has(team) ? ({ path: team } as never) : undefined),
};
/** A clock one millisecond further at each reading: creation order is unambiguous. */
const tick = () => {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => (ms += 1) };
};
const setup = () => {
  const store = new MemoryFolderStore();
  return { store, folders: new FolderService(store, directory, tick(), systemIds) };
};
const kind = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { kind?: string }) => e.kind,
  );
const note = (over: Partial<NoteRecord>): NoteRecord =>
  ({ id: 'n1', ownerId: 'alice', teamPath: null, parentFolderId: null, ...over }) as NoteRecord;

describe('folders (domain)', () => {
  it('creates nested folders up to the depth limit and no deeper', async () => {
    const { folders } = setup();
    let parent = '';
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth += 1) {
      parent = (await folders.create('alice', { name: `level ${depth}`, parentFolderId: parent })).id;
    }
    const tooDeep = folders.create('alice', { name: 'too deep', parentFolderId: parent });
    await expect(tooDeep).rejects.toMatchObject({ kind: 'invalid', fields: [{ field: 'parentFolderId' }] });
    expect(await folders.list('alice')).toHaveLength(MAX_FOLDER_DEPTH);
  });

  it('refuses a move into itself or a descendant (422), and a move that nests too deep', async () => {
    const { folders } = setup();
    const a = await folders.create('alice', { name: 'a' });
    const b = await folders.create('alice', { name: 'b', parentFolderId: a.id });
    const c = await folders.create('alice', { name: 'c', parentFolderId: b.id });
    await expect(folders.update('alice', a.id, { parentFolderId: c.id })).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(folders.update('alice', a.id, { parentFolderId: a.id })).rejects.toMatchObject({
      kind: 'invalid',
    });
    const moved = await folders.update('alice', c.id, { parentFolderId: null, name: 'c2', color: '#fff' });
    expect(moved).toMatchObject({ parentFolderId: null, name: 'c2', color: '#fff' });
    let deep = (await folders.create('alice', { name: 'd1' })).id;
    for (let i = 2; i < MAX_FOLDER_DEPTH; i += 1)
      deep = (await folders.create('alice', { parentFolderId: deep })).id;
    // a (with child b) is 2 levels high: under a folder at depth MAX-1 it would reach MAX+1.
    await expect(folders.update('alice', a.id, { parentFolderId: deep })).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(folders.update('alice', c.id, { parentFolderId: deep })).resolves.toMatchObject({
      parentFolderId: deep,
    });
  });

  it('refuses to delete a folder holding sub-folders or notes (409) and deletes an empty one', async () => {
    const { folders, store } = setup();
    const a = await folders.create('alice', { name: 'a' });
    const b = await folders.create('alice', { name: 'b', parentFolderId: a.id });
    expect(await kind(folders.delete('alice', a.id))).toBe('conflict');
    store.placeNote({ userId: 'alice' }, note({ parentFolderId: b.id }));
    expect(await kind(folders.delete('alice', b.id))).toBe('conflict');
    expect(await folders.notesIn('alice', b.id)).toHaveLength(1);
    const c = await folders.create('alice', { name: 'c' });
    await folders.delete('alice', c.id);
    expect(await kind(folders.get('alice', c.id))).toBe('not_found');
  });

  it('keeps every folder once in the ordering, under its own parent', async () => {
    const { folders } = setup();
    const a = await folders.create('alice', { name: 'a' });
    const b = await folders.create('alice', { name: 'b' });
    const a1 = await folders.create('alice', { name: 'a1', parentFolderId: a.id });
    expect(await folders.getOrder('alice')).toEqual({ [ROOT]: [a.id, b.id], [a.id]: [a1.id] });
    await folders.putOrder('alice', { [ROOT]: [b.id, a.id] });
    expect(await folders.getOrder('alice')).toEqual({ [ROOT]: [b.id, a.id], [a.id]: [a1.id] });
    await expect(folders.putOrder('alice', { [ROOT]: [a1.id] })).rejects.toMatchObject({
      kind: 'invalid',
      fields: [{ field: 'order.root' }],
    });
    await expect(folders.putOrder('alice', { nope: [] })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(folders.putOrder('alice', { [ROOT]: [a.id, a.id] })).rejects.toMatchObject({
      kind: 'invalid',
    });
  });

  it('team workspaces: members only (403), unknown team 404, apart from personal folders', async () => {
    const { folders } = setup();
    const t = await folders.create('alice', { name: 'team folder' }, 'crew');
    expect(await kind(folders.list('bob', 'crew'))).toBe('forbidden');
    expect(await kind(folders.list('alice', 'nope'))).toBe('not_found');
    expect(await folders.list('alice')).toEqual([]);
    expect(await kind(folders.get('alice', t.id))).toBe('not_found');
    expect((await folders.get('alice', t.id, 'crew')).name).toBe('team folder');
  });

  it('gives notes the breadcrumb of their folder, top level first, only to those who see the workspace', async () => {
    const { folders } = setup();
    const a = await folders.create('alice', { name: 'a', icon: '1F525' });
    const b = await folders.create('alice', { name: 'b', parentFolderId: a.id });
    const n = note({ parentFolderId: b.id });
    const pathOf = await folders.pathsFor('alice', [n, note({ id: 'root-note' })]);
    expect(pathOf(n)).toEqual([
      { id: a.id, name: 'a', icon: '1F525', color: '', parentId: '', clientId: a.id },
      { id: b.id, name: 'b', icon: '', color: '', parentId: a.id, clientId: b.id },
    ]);
    expect((await folders.pathsFor('bob', [n]))(n)).toEqual([]);
    await folders.update('alice', a.id, { name: 'renamed' });
    expect((await folders.pathsFor('alice', [n]))(n)[0].name).toBe('renamed');
  });
});
