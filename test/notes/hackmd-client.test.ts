// The official @hackmd/api client, unchanged, against our API. Every response it receives is also
// checked against openapi/notes.json (through an axios interceptor).
import { describe, expect, it } from 'vitest';
import { documentedClient as client } from '../support/hackmd-client.ts';
import { http } from '../support/http.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { PNG } from './helpers.ts';

/** What the client's single-note methods resolve to at run time (its types omit etag and status). */
type WithEtag<T> = T & { etag: string; status: number };
const tagged = async <T>(p: Promise<T>) => (await p) as WithEtag<T>;

describe('the official @hackmd/api client', () => {
  it('works for every operation it has', async () => {
    const me = await newUser('Client User');
    const team = await newTeam(me, [], 'Client Team');
    const api = client(me.token);

    const profile = await api.getMe();
    expect(profile).toMatchObject({ id: me.id, userPath: me.userPath, name: 'Client User' });
    expect(profile.teams.map((t) => t.path)).toEqual([team.path]);
    expect((await api.getTeams()).map((t) => t.path)).toEqual([team.path]);
    expect(await api.getNoteList()).toEqual([]);

    const created = await tagged(
      api.createNote({
        content: '# Hello\n\nfrom the client',
        readPermission: 'signed_in' as never,
        writePermission: 'owner' as never,
      }),
    );
    expect(created).toMatchObject({
      title: 'Hello',
      content: '# Hello\n\nfrom the client',
      userPath: me.userPath,
      teamPath: null,
      readPermission: 'signed_in',
      writePermission: 'owner',
    });
    expect(created.id).toHaveLength(22);
    expect(created.etag).toMatch(/^".+"$/);

    const list = await api.getNoteList();
    expect(list.map((n) => n.id)).toEqual([created.id]);
    expect(list[0]).not.toHaveProperty('content');

    const read = await tagged(api.getNote(created.id));
    expect(read).toMatchObject({ id: created.id, content: '# Hello\n\nfrom the client', status: 200 });
    const cached = await tagged(api.getNote(created.id, { etag: read.etag }));
    expect(cached).toMatchObject({ status: 304, etag: read.etag });
    expect(cached).not.toHaveProperty('content');

    const renamed = await api.updateNote(created.id, { title: 'Renamed', tags: ['a', 'b'] });
    expect(renamed).toMatchObject({
      title: 'Renamed',
      tags: ['a', 'b'],
      content: '# Hello\n\nfrom the client',
    });
    const rewritten = await tagged(api.updateNoteContent(created.id, '# Other heading\n'));
    expect(rewritten).toMatchObject({ title: 'Renamed', content: '# Other heading\n' });
    expect(rewritten.etag).not.toBe(read.etag);
    expect((await tagged(api.getNote(created.shortId, { etag: read.etag }))).status).toBe(200);

    const uploaded = await api.uploadNoteImage(created.id, new Blob([PNG], { type: 'image/png' }), {
      filename: 'dot.png',
    });
    expect(uploaded.data.link).toMatch(/^http.*\.png$/);
    const image = await fetch(uploaded.data.link);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

    const history = await api.getHistory();
    expect(history[0]).toMatchObject({ id: created.id, title: 'Renamed' });

    const teamNote = await api.createTeamNote(team.path, { title: 'Team plan', content: 'step 1' });
    expect(teamNote).toMatchObject({
      title: 'Team plan',
      content: 'step 1',
      teamPath: team.path,
      userPath: null,
    });
    expect((await api.getTeamNotes(team.path)).map((n) => n.id)).toEqual([teamNote.id]);
    const teamUpdate = await api.updateTeamNote(team.path, teamNote.id, {
      tags: ['plan'],
      readPermission: 'signed_in' as never,
    });
    expect(teamUpdate.status).toBe(200);
    expect(teamUpdate.data).toMatchObject({ tags: ['plan'], readPermission: 'signed_in' });
    const teamContent = await api.updateTeamNoteContent(team.path, teamNote.id, 'step 1\nstep 2');
    expect(teamContent.data).toMatchObject({ content: 'step 1\nstep 2', tags: ['plan'], title: 'Team plan' });
    const teamDeleted = await api.deleteTeamNote(team.path, teamNote.id);
    expect(teamDeleted.status).toBe(204);
    expect(await api.getTeamNotes(team.path)).toEqual([]);

    await api.deleteNote(created.id);
    expect(await api.getNoteList()).toEqual([]);
    await expect(api.getNote(created.id)).rejects.toMatchObject({ code: 404 });
    expect((await api.getHistory()).map((n) => n.id)).toEqual([]);
    // in the trash until purged: its images stay (test/notes/trash.test.ts)
    expect((await fetch(uploaded.data.link)).status).toBe(200);
  });

  it('a failed call is never retried into a 2xx against the bare base URL', async () => {
    const me = await newUser();
    const api = client(me.token);
    await expect(api.getNote('no-such-note')).rejects.toMatchObject({ code: 404 });
    expect((await http('GET', '/v1', { token: me.token })).status).toBe(404);
  });
});
