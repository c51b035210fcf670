// Folders over HTTP: every folder method of the official @hackmd/api client (personal and team),
// notes in folders (parentFolderId, folderPaths, listing a folder's notes), moves, deletes.
import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH } from '../../lib/notes/folders/folders.ts';
import { documentedClient as client } from '../support/hackmd-client.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote, expectBudget } from './helpers.ts';

const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { code?: number }) => e.code,
  );

describe('folders with the official client', () => {
  it('drives all seven personal folder methods', async () => {
    const me = await newUser('Folder User');
    const api = client(me.token);
    expect(await api.getFolderList()).toEqual([]);
    const work = await api.createFolder({
      name: 'Work',
      icon: '1F525',
      color: '#FF6B6B',
      description: 'job',
    });
    expect(work).toMatchObject({
      name: 'Work',
      icon: '1F525',
      color: '#FF6B6B',
      description: 'job',
      parentFolderId: null,
    });
    expect(Object.keys(work).sort()).toEqual([
      'color',
      'createdAt',
      'description',
      'icon',
      'id',
      'name',
      'parentFolderId',
      'updatedAt',
    ]);
    const sub = await api.createFolder({ name: 'Sub', parentFolderId: work.id });
    const home = await api.createFolder({ name: 'Home', parentFolderId: '' });
    expect(await api.getFolder(sub.id)).toMatchObject({
      id: sub.id,
      parentFolderId: work.id,
      icon: null,
      color: null,
    });
    expect((await api.getFolderList()).map((f) => f.name)).toEqual(['Work', 'Sub', 'Home']);

    const renamed = await api.updateFolder(sub.id, { name: 'Moved', parentFolderId: home.id, color: null });
    expect(renamed).toMatchObject({ id: sub.id, name: 'Moved', parentFolderId: home.id, color: null });
    expect(await api.getFolderOrder()).toEqual({ root: [work.id, home.id], [home.id]: [sub.id] });
    await api.updateFolderOrder({ order: { root: [home.id, work.id] } });
    expect(await api.getFolderOrder()).toEqual({ root: [home.id, work.id], [home.id]: [sub.id] });

    expect(await statusOf(api.updateFolder(home.id, { parentFolderId: sub.id }))).toBe(422);
    expect(await statusOf(api.deleteFolder(home.id))).toBe(409);
    await api.deleteFolder(sub.id);
    expect(await statusOf(api.getFolder(sub.id))).toBe(404);
    expect((await api.getFolderList()).map((f) => f.name)).toEqual(['Work', 'Home']);
  });

  it('drives all seven team folder methods; members only', async () => {
    const owner = await newUser('Team Folder Owner');
    const member = await newUser('Team Folder Member');
    const outsider = await newUser('Team Folder Outsider');
    const team = await newTeam(owner, [member]);
    const api = client(member.token);
    expect(await api.getTeamFolderList(team.path)).toEqual([]);
    const docs = await api.createTeamFolder(team.path, { name: 'Docs' });
    const specs = await api.createTeamFolder(team.path, { name: 'Specs', parentFolderId: docs.id });
    expect(await client(owner.token).getTeamFolder(team.path, specs.id)).toMatchObject({
      name: 'Specs',
      parentFolderId: docs.id,
    });
    expect(
      await api.updateTeamFolder(team.path, specs.id, { parentFolderId: null, description: 'top' }),
    ).toMatchObject({ parentFolderId: null, description: 'top' });
    expect(await api.getTeamFolderOrder(team.path)).toEqual({ root: [docs.id, specs.id] });
    await api.updateTeamFolderOrder(team.path, { order: { root: [specs.id, docs.id] } });
    expect(await api.getTeamFolderOrder(team.path)).toEqual({ root: [specs.id, docs.id] });
    // each user has their own ordering of the team's folders
    expect(await client(owner.token).getTeamFolderOrder(team.path)).toEqual({ root: [docs.id, specs.id] });
    await api.deleteTeamFolder(team.path, specs.id);
    expect((await api.getTeamFolderList(team.path)).map((f) => f.id)).toEqual([docs.id]);
    expect(await statusOf(client(outsider.token).getTeamFolderList(team.path))).toBe(403);
    expect(await statusOf(client(outsider.token).getTeamFolder(team.path, docs.id))).toBe(403);
    expect(await statusOf(api.getFolder(docs.id))).toBe(404);
  });
});

describe('notes in folders', () => {
  it('places notes with parentFolderId ("" or null = top level) and shows folderPaths everywhere', async () => {
    const me = await newUser('Notes In Folders');
    const other = await newUser('Other Owner');
    const api = client(me.token);
    const top = await api.createFolder({ name: 'Top', icon: '1F4C1' });
    const inner = await api.createFolder({ name: 'Inner', parentFolderId: top.id });
    const theirs = await client(other.token).createFolder({ name: 'Theirs' });
    const path = [
      { id: top.id, name: 'Top', icon: '1F4C1', color: '', parentId: '', clientId: top.id },
      { id: inner.id, name: 'Inner', icon: '', color: '', parentId: top.id, clientId: inner.id },
    ];

    const rootNote = await createNote(me.token, { content: '# at the root', parentFolderId: '' });
    expect(rootNote.folderPaths).toEqual([]);
    const filed = await createNote(me.token, {
      content: '# filed',
      parentFolderId: inner.id,
      readPermission: 'signed_in',
    });
    expect(filed.folderPaths).toEqual(path);
    for (const parentFolderId of ['no-such-folder', theirs.id]) {
      // A create still makes the note, at the top level, and says so (HackMD's 207 {note, error}).
      const res = await call('POST', '/v1/notes', {
        token: me.token,
        body: { content: 'x', parentFolderId },
      });
      expect(res.status).toBe(207);
      expect(res.body.note.folderPaths).toEqual([]);
      const moved = await call('PATCH', `/v1/notes/${rootNote.id}`, {
        token: me.token,
        body: { parentFolderId },
      });
      expect(moved.status).toBe(422);
    }

    const got = await call('GET', `/v1/notes/${filed.id}`, { token: me.token });
    expect(got.body.folderPaths).toEqual(path);
    expectBudget(got, 5); // token, note, folder tree, history entry, visit counter
    const list = await call('GET', '/v1/notes', { token: me.token });
    expect(list.body.find((n: { id: string }) => n.id === filed.id).folderPaths).toEqual(path);
    expectBudget(list, 3);
    expect(
      (await call('GET', '/v1/history', { token: me.token })).body.find(
        (n: { id: string }) => n.id === filed.id,
      ).folderPaths,
    ).toEqual(path);
    // a reader outside the workspace does not see its folders
    expect((await call('GET', `/v1/notes/${filed.id}`, { token: other.token })).body.folderPaths).toEqual([]);

    const inFolder = await call('GET', `/v1/notes?folderId=${inner.id}`, { token: me.token });
    expect(inFolder.body.map((n: { id: string }) => n.id)).toEqual([filed.id]);
    expectBudget(inFolder, 4);
    expect((await call('GET', `/v1/notes?folderId=${theirs.id}`, { token: me.token })).status).toBe(404);

    // moving the folder changes every note's path without rewriting the note
    await api.updateFolder(inner.id, { parentFolderId: null, name: 'Inner moved' });
    const after = await call('GET', `/v1/notes/${filed.id}`, { token: me.token });
    expect(after.body.folderPaths).toEqual([
      { id: inner.id, name: 'Inner moved', icon: '', color: '', parentId: '', clientId: inner.id },
    ]);
    expect(after.body.lastChangedAt).toBe(filed.lastChangedAt);

    // a folder holding a note cannot be deleted; moving the note out (null = top level) empties it
    expect((await call('DELETE', `/v1/folders/${inner.id}`, { token: me.token })).status).toBe(409);
    const out = await call('PATCH', `/v1/notes/${filed.id}`, {
      token: me.token,
      body: { parentFolderId: null },
    });
    expect(out.body.folderPaths).toEqual([]);
    expect((await call('GET', `/v1/notes?folderId=${inner.id}`, { token: me.token })).body).toEqual([]);
    expect((await call('DELETE', `/v1/folders/${inner.id}`, { token: me.token })).status).toBe(204);
  });

  it("team notes go only into the team's folders", async () => {
    const me = await newUser('Team Notes Folders');
    const team = await newTeam(me);
    const personal = await client(me.token).createFolder({ name: 'Mine' });
    const shared = await client(me.token).createTeamFolder(team.path, { name: 'Shared' });
    const bad = await call('POST', `/v1/teams/${team.path}/notes`, {
      token: me.token,
      body: { content: 'x', parentFolderId: personal.id },
    });
    expect(bad.status).toBe(207);
    expect(bad.body.note.teamPath).toBe(team.path);
    expect(bad.body.note.folderPaths).toEqual([]);
    const ok = await createNote(me.token, { content: '# team', parentFolderId: shared.id }, team.path);
    expect(ok.folderPaths.map((f: { id: string }) => f.id)).toEqual([shared.id]);
    const listed = await call('GET', `/v1/teams/${team.path}/notes?folderId=${shared.id}`, {
      token: me.token,
    });
    expect(listed.body.map((n: { id: string }) => n.id)).toEqual([ok.id]);
  });

  it('answers bad folder input with named 422s, never 5xx', async () => {
    const me = await newUser('Bad Folder Input');
    let parent = '';
    for (let i = 0; i < MAX_FOLDER_DEPTH; i += 1) {
      parent = (await call('POST', '/v1/folders', { token: me.token, body: { parentFolderId: parent } })).body
        .id;
    }
    const deep = await call('POST', '/v1/folders', { token: me.token, body: { parentFolderId: parent } });
    expect(deep.status).toBe(422);
    for (const body of [
      { color: 'red' },
      { icon: '🔥' },
      { name: 'x'.repeat(101) },
      { extra: 1, parentFolderId: 5 },
    ]) {
      const res = await call('POST', '/v1/folders', { token: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const order = await call('PUT', '/v1/folders/folder-order', {
      token: me.token,
      body: { order: { root: ['nope'] } },
    });
    expect(order.status).toBe(422);
    expect(order.body.errors[0].field).toBe('order.root');
    const created = await call('POST', '/v1/folders', { token: me.token });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Untitled');
    expectBudget(created, 3);
  });
});
