// Notes over HTTP against the local runner: shapes, defaults, title rule, conditional requests,
// optimistic concurrency, permalinks, history, deletion, images, and DynamoDB budgets per call.
import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_BYTES } from '../../lib/notes/kernel/model.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote, expectBudget, GIF, multipart, NOTE_FIELDS, PNG } from './helpers.ts';

describe('CreateNote', () => {
  it('returns the Note fields of the Notes interface document plus content, with documented defaults, within budget', async () => {
    const me = await newUser('Creator');
    const before = Date.now();
    const res = await call('POST', '/v1/notes', { token: me.token, body: { content: '# Plan\nbody' } });
    expect(res.status).toBe(200);
    expectBudget(res, 4); // the content is put on its own, then the transaction makes it current
    const n = res.body;
    expect(Object.keys(n).sort()).toEqual([...NOTE_FIELDS, 'content'].sort());
    expect(n.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(n.shortId).toMatch(/^[A-Za-z0-9_-]{10}$/);
    expect(n).toMatchObject({
      title: 'Plan',
      content: '# Plan\nbody',
      tags: [],
      description: '',
      publishType: 'edit',
      publishedAt: null,
      readPermission: 'owner',
      writePermission: 'owner',
      permalink: null,
      userPath: me.userPath,
      teamPath: null,
      titleUpdatedAt: null,
      tagsUpdatedAt: null,
      lastChangeUser: { name: 'Creator', userPath: me.userPath, photo: expect.any(String), biography: null },
    });
    expect(n.createdAt).toBeGreaterThanOrEqual(before);
    expect(n.lastChangedAt).toBe(n.createdAt);
    expect(n.publishLink).toBe(`${process.env.PUBLIC_BASE_URL}/${n.shortId}`);
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('takes a JSON string as the content, and no body as an empty Untitled note', async () => {
    const me = await newUser();
    expect(await createNote(me.token, 'just text')).toMatchObject({
      content: 'just text',
      title: 'Untitled',
    });
    const empty = await call('POST', '/v1/notes', {
      token: me.token,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ content: '', title: 'Untitled' });
  });

  it('an explicit title wins over the heading; the permalink shapes publishLink', async () => {
    const me = await newUser();
    const n = await createNote(me.token, {
      title: 'Mine',
      content: '# Heading',
      permalink: 'my-page',
      tags: ['x'],
      readPermission: 'guest',
      writePermission: 'signed_in',
    });
    expect(n).toMatchObject({
      title: 'Mine',
      permalink: 'my-page',
      tags: ['x'],
      readPermission: 'guest',
      writePermission: 'signed_in',
    });
    expect(n.publishLink).toBe(`${process.env.PUBLIC_BASE_URL}/@${me.userPath}/my-page`);
  });

  it('content of exactly the limit is accepted; one byte more is 413 naming content', async () => {
    const me = await newUser();
    const ok = await call('POST', '/v1/notes', { token: me.token, body: 'é'.repeat(MAX_CONTENT_BYTES / 2) });
    expect(ok.status).toBe(200);
    const big = await call('POST', '/v1/notes', {
      token: me.token,
      body: `${'é'.repeat(MAX_CONTENT_BYTES / 2)}x`,
    });
    expect(big.status).toBe(413);
    expect(big.body.errors).toEqual([{ field: 'content', message: expect.any(String) }]);
  });

  it('writePermission broader than readPermission is 422 naming writePermission', async () => {
    const me = await newUser();
    const res = await call('POST', '/v1/notes', {
      token: me.token,
      body: { readPermission: 'owner', writePermission: 'signed_in' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['writePermission']);
  });
});

describe('permalinks', () => {
  it('are unique per owner: 409 on create and update; freed by a change or a purge, kept in the trash', async () => {
    const me = await newUser();
    const other = await newUser();
    const first = await createNote(me.token, { permalink: 'shared' });
    const dup = await call('POST', '/v1/notes', { token: me.token, body: { permalink: 'shared' } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([{ field: 'permalink', message: expect.any(String) }]);
    expect((await createNote(other.token, { permalink: 'shared' })).permalink).toBe('shared');

    const second = await createNote(me.token, { permalink: 'second' });
    expect(
      (await call('PATCH', `/v1/notes/${second.id}`, { token: me.token, body: { permalink: 'shared' } }))
        .status,
    ).toBe(409);
    expect(
      (await call('PATCH', `/v1/notes/${first.id}`, { token: me.token, body: { permalink: 'moved' } })).body
        .permalink,
    ).toBe('moved');
    expect(
      (await call('PATCH', `/v1/notes/${second.id}`, { token: me.token, body: { permalink: 'shared' } }))
        .status,
    ).toBe(200);
    expect((await call('DELETE', `/v1/notes/${second.id}`, { token: me.token })).status).toBe(204);
    // in the trash the note keeps its permalink (a restore is exact); a purge frees it (trash.test.ts)
    expect((await call('POST', '/v1/notes', { token: me.token, body: { permalink: 'shared' } })).status).toBe(
      409,
    );
  });
});

describe('GetNote', () => {
  it('by id or shortId, with ETag and Last-Modified; 304 for If-None-Match / If-Modified-Since', async () => {
    const me = await newUser();
    const n = await createNote(me.token, 'hello');
    const byId = await call('GET', `/v1/notes/${n.id}`, { token: me.token });
    expect(byId.status).toBe(200);
    expectBudget(byId, 4);
    expect(byId.body).toMatchObject({ id: n.id, content: 'hello' });
    const etag = byId.headers.get('etag')!;
    const lastModified = byId.headers.get('last-modified')!;
    expect(new Date(lastModified).getTime()).toBe(Math.floor(n.lastChangedAt / 1000) * 1000);
    expect((await call('GET', `/v1/notes/${n.shortId}`, { token: me.token })).body.id).toBe(n.id);

    const cached = await call('GET', `/v1/notes/${n.id}`, {
      token: me.token,
      headers: { 'If-None-Match': etag },
    });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    expect(
      (
        await call('GET', `/v1/notes/${n.id}`, {
          token: me.token,
          headers: { 'If-None-Match': `"other", W/${etag}` },
        })
      ).status,
    ).toBe(304);
    expect(
      (
        await call('GET', `/v1/notes/${n.id}`, {
          token: me.token,
          headers: { 'If-Modified-Since': lastModified },
        })
      ).status,
    ).toBe(304);
    expect(
      (
        await call('GET', `/v1/notes/${n.id}`, {
          token: me.token,
          headers: { 'If-Modified-Since': new Date(n.lastChangedAt - 5000).toUTCString() },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('GET', `/v1/notes/${n.id}`, {
          token: me.token,
          headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified },
        })
      ).status,
    ).toBe(200);
  });

  it('an unknown id, or an id whose shortId part matches but rest does not, is 404', async () => {
    const me = await newUser();
    const n = await createNote(me.token);
    expect((await call('GET', '/v1/notes/AAAAAAAAAAAAAAAAAAAAAA', { token: me.token })).status).toBe(404);
    expect((await call('GET', `/v1/notes/${n.shortId}AAAAAAAAAAAA`, { token: me.token })).status).toBe(404);
    expect((await call('GET', '/v1/notes/abc', { token: me.token })).status).toBe(404);
  });
});

describe('UpdateNote', () => {
  it('changes only the fields sent; content never wipes an explicit title; within budget', async () => {
    const editor = await newUser('Editor');
    const me = await newUser('Owner');
    const n = await createNote(me.token, {
      content: '# First',
      description: 'd',
      tags: ['t'],
      writePermission: 'signed_in',
      readPermission: 'signed_in',
    });
    expect(n.title).toBe('First');

    const byHeading = await call('PATCH', `/v1/notes/${n.id}`, {
      token: editor.token,
      body: { content: '# Second\ntext' },
    });
    expect(byHeading.status).toBe(200);
    // 4 + the system version a content change keeps (docs/notes.md, Versions) + the live document's Query (docs/live.md)
    expectBudget(byHeading, 7);
    expect(byHeading.body).toMatchObject({
      title: 'Second',
      content: '# Second\ntext',
      description: 'd',
      tags: ['t'],
      lastChangeUser: { name: 'Editor' },
      tagsUpdatedAt: null,
    });
    expect(byHeading.body.titleUpdatedAt).toBeGreaterThanOrEqual(n.createdAt);
    expect(byHeading.body.lastChangedAt).toBeGreaterThanOrEqual(n.lastChangedAt);

    const titled = await call('PATCH', `/v1/notes/${n.id}`, {
      token: me.token,
      body: { title: 'Fixed', tags: ['u', 'v'] },
    });
    expect(titled.body).toMatchObject({
      title: 'Fixed',
      tags: ['u', 'v'],
      content: '# Second\ntext',
      lastChangeUser: { name: 'Editor' },
    });
    expect(titled.body.tagsUpdatedAt).toEqual(expect.any(Number));
    const content = await call('PATCH', `/v1/notes/${n.id}`, {
      token: me.token,
      body: { content: '# Third' },
    });
    expect(content.body).toMatchObject({
      title: 'Fixed',
      content: '# Third',
      lastChangeUser: { name: 'Owner' },
    });
    const cleared = await call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { title: '' } });
    expect(cleared.body.title).toBe('Third');

    const noop = await call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: {} });
    expect(noop.status).toBe(200);
    expect(noop.headers.get('etag')).toBe(cleared.headers.get('etag'));
  });

  it('If-Match: the current ETag succeeds, a stale one is 412', async () => {
    const me = await newUser();
    const n = await createNote(me.token, 'v1');
    const etag = (await call('GET', `/v1/notes/${n.id}`, { token: me.token })).headers.get('etag')!;
    const ok = await call('PATCH', `/v1/notes/${n.id}`, {
      token: me.token,
      headers: { 'If-Match': etag },
      body: { content: 'v2' },
    });
    expect(ok.status).toBe(200);
    const stale = await call('PATCH', `/v1/notes/${n.id}`, {
      token: me.token,
      headers: { 'If-Match': etag },
      body: { content: 'v3' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 41200 });
    expect((await call('GET', `/v1/notes/${n.id}`, { token: me.token })).body.content).toBe('v2');
  });

  it("two concurrent updates with the same If-Match: one 200, one 412, the winner's change kept", async () => {
    const me = await newUser();
    for (let round = 0; round < 3; round += 1) {
      const n = await createNote(me.token, 'start');
      const etag = (await call('GET', `/v1/notes/${n.id}`, { token: me.token })).headers.get('etag')!;
      const [a, b] = await Promise.all(
        ['from A', 'from B'].map((content) =>
          call('PATCH', `/v1/notes/${n.id}`, {
            token: me.token,
            headers: { 'If-Match': etag },
            body: { content },
          }),
        ),
      );
      expect([a.status, b.status].sort()).toEqual([200, 412]);
      const winner = a.status === 200 ? a : b;
      const now = await call('GET', `/v1/notes/${n.id}`, { token: me.token });
      expect(now.body.content).toBe(winner.body.content);
      expect(now.headers.get('etag')).toBe(winner.headers.get('etag'));
    }
  });

  it('concurrent updates without If-Match lose nothing: each field sent is kept', async () => {
    const me = await newUser();
    const n = await createNote(me.token, 'start');
    const results = await Promise.all([
      call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { title: 'T' } }),
      call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { tags: ['k'] } }),
      call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { description: 'D' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await call('GET', `/v1/notes/${n.id}`, { token: me.token })).body).toMatchObject({
      title: 'T',
      tags: ['k'],
      description: 'D',
    });
  });
});

describe('ListNotes and GetHistory', () => {
  it('ListNotes: own personal notes only, most recently changed first, without content', async () => {
    const me = await newUser();
    const team = await newTeam(me);
    const a = await createNote(me.token, 'a');
    const b = await createNote(me.token, 'b');
    await createNote(me.token, 'team', team.path);
    await call('PATCH', `/v1/notes/${a.id}`, { token: me.token, body: { content: 'a2' } });
    const res = await call('GET', '/v1/notes', { token: me.token });
    expect(res.status).toBe(200);
    expectBudget(res, 3);
    expect(res.body.map((n: { id: string }) => n.id)).toEqual([a.id, b.id]);
    expect(Object.keys(res.body[0]).sort()).toEqual(NOTE_FIELDS);
  });

  it('GetHistory: notes read or changed, most recent first, each once; limit', async () => {
    const me = await newUser();
    const owner = await newUser();
    const a = await createNote(me.token, 'a');
    const shared = await createNote(owner.token, { content: '# Shared', readPermission: 'signed_in' });
    const b = await createNote(me.token, 'b');
    await call('GET', `/v1/notes/${a.id}`, { token: me.token });
    await call('GET', `/v1/notes/${shared.id}`, { token: me.token });
    await call('GET', `/v1/notes/${shared.shortId}`, { token: me.token });
    const res = await call('GET', '/v1/history', { token: me.token });
    expect(res.status).toBe(200);
    expectBudget(res, 3);
    expect(res.body.map((n: { id: string }) => n.id)).toEqual([shared.id, a.id, b.id]);
    expect(Object.keys(res.body[0]).sort()).toEqual(NOTE_FIELDS);
    expect(res.body[0].title).toBe('Shared');
    expect(
      (await call('GET', '/v1/history?limit=2', { token: me.token })).body.map((n: { id: string }) => n.id),
    ).toEqual([shared.id, a.id]);
    expect(
      (await call('GET', '/v1/history', { token: owner.token })).body.map((n: { id: string }) => n.id),
    ).toEqual([shared.id]);
  });
});

describe('DeleteNote', () => {
  it('moves the note to the trash: 404 everywhere, out of lists and history; images kept; within budget', async () => {
    const me = await newUser();
    const reader = await newUser();
    const n = await createNote(me.token, { content: 'bye', readPermission: 'signed_in' });
    await call('GET', `/v1/notes/${n.id}`, { token: reader.token });
    const upload = multipart([{ name: 'image', filename: 'a.png', type: 'image/png', data: PNG }]);
    const link = (
      await call('POST', `/v1/notes/${n.id}/images`, {
        token: me.token,
        raw: upload.raw,
        headers: upload.headers,
      })
    ).body.data.link;
    expect((await fetch(link)).status).toBe(200);

    const res = await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectBudget(res, 4);
    expect((await call('GET', `/v1/notes/${n.id}`, { token: me.token })).status).toBe(404);
    expect((await call('DELETE', `/v1/notes/${n.id}`, { token: me.token })).status).toBe(404);
    expect((await call('GET', '/v1/history', { token: me.token })).body).toEqual([]);
    expect((await call('GET', '/v1/history', { token: reader.token })).body).toEqual([]);
    expect((await call('GET', '/v1/notes', { token: me.token })).body).toEqual([]);
    // restorable from the trash (test/notes/trash.test.ts), so its images stay until it is purged
    expect((await fetch(link)).status).toBe(200);
  });

  it('20 reads racing a delete leave no history entry behind', async () => {
    const me = await newUser();
    const readers = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    const quiet = await newUser();
    for (let round = 0; round < 3; round += 1) {
      const n = await createNote(me.token, { readPermission: 'signed_in' });
      // Two readers have an entry already (the delete strips them); the others race to add theirs.
      for (const r of [readers[0], quiet])
        expect((await call('GET', `/v1/notes/${n.id}`, { token: r.token })).status).toBe(200);
      const racing = Array.from({ length: 20 }, (_, i) =>
        call('GET', `/v1/notes/${n.id}`, { token: readers[i % readers.length].token }),
      );
      const del = await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
      expect(del.status).toBe(204);
      // The entries are stripped after the trash's transaction, before the delete answers.
      expect((await call('GET', '/v1/history', { token: quiet.token })).body).toEqual([]);
      expect((await call('GET', '/v1/history', { token: me.token })).body).toEqual([]);
      for (const r of await Promise.all(racing)) expect([200, 404]).toContain(r.status);
    }
    for (const r of readers) expect((await call('GET', '/v1/history', { token: r.token })).body).toEqual([]);
  });
});

describe('UploadNoteImage', () => {
  it('stores PNG and GIF (type from the bytes); the link serves the bytes; within budget', async () => {
    const me = await newUser();
    const n = await createNote(me.token);
    for (const [bytes, ext] of [
      [PNG, 'png'],
      [GIF, 'gif'],
    ] as const) {
      const body = multipart([
        { name: 'image', filename: 'whatever.bin', type: 'application/octet-stream', data: bytes },
      ]);
      const res = await call('POST', `/v1/notes/${n.id}/images`, {
        token: me.token,
        raw: body.raw,
        headers: body.headers,
      });
      expect(res.status).toBe(200);
      expectBudget(res, 3);
      expect(res.body.data.link.startsWith(`${process.env.IMAGE_BASE_URL}/`)).toBe(true);
      expect(res.body.data.link.endsWith(`.${ext}`)).toBe(true);
      const image = await fetch(res.body.data.link);
      expect(image.headers.get('content-type')).toBe(`image/${ext}`);
      expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
    }
  });

  it('a non-image is 415 and an image over 4 MiB is 413, both naming image', async () => {
    const me = await newUser();
    const n = await createNote(me.token);
    const text = multipart([
      { name: 'image', filename: 'a.png', type: 'image/png', data: 'not an image at all' },
    ]);
    const bad = await call('POST', `/v1/notes/${n.id}/images`, {
      token: me.token,
      raw: text.raw,
      headers: text.headers,
    });
    expect(bad.status).toBe(415);
    expect(bad.body.errors).toEqual([{ field: 'image', message: expect.any(String) }]);
    const huge = multipart([
      {
        name: 'image',
        filename: 'big.png',
        type: 'image/png',
        data: Buffer.concat([PNG, Buffer.alloc(4 * 1024 * 1024)]),
      },
    ]);
    const big = await call('POST', `/v1/notes/${n.id}/images`, {
      token: me.token,
      raw: huge.raw,
      headers: huge.headers,
    });
    expect(big.status).toBe(413);
    expect(big.body.errors).toEqual([{ field: 'image', message: expect.any(String) }]);
  });
});

describe('team notes', () => {
  it('members create, list, read, update and delete; each call within budget', async () => {
    const owner = await newUser('Team Owner');
    const member = await newUser('Member');
    const team = await newTeam(owner, [member]);
    const created = await call('POST', `/v1/teams/${team.path}/notes`, {
      token: member.token,
      body: { content: '# Team doc' },
    });
    expect(created.status).toBe(200);
    expectBudget(created, 4);
    const n = created.body;
    expect(n).toMatchObject({
      teamPath: team.path,
      userPath: null,
      title: 'Team doc',
      lastChangeUser: { name: 'Member' },
    });

    const list = await call('GET', `/v1/teams/${team.path}/notes`, { token: owner.token });
    expectBudget(list, 3);
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([n.id]);
    const read = await call('GET', `/v1/teams/${team.path}/notes/${n.shortId}`, { token: owner.token });
    expect(read.status).toBe(200);
    // Token, membership, the note's Query, the history entry and the visit counter (two single-item
    // writes of 1 write unit each, not one transaction that rewrites the content).
    expectBudget(read, 5);
    const viaPersonalRoute = await call('GET', `/v1/notes/${n.id}`, { token: owner.token });
    expect(viaPersonalRoute.status).toBe(200);
    expectBudget(viaPersonalRoute, 5);
    const updated = await call('PATCH', `/v1/teams/${team.path}/notes/${n.id}`, {
      token: owner.token,
      body: { readPermission: 'signed_in', content: 'x' },
    });
    expect(updated.body).toMatchObject({
      readPermission: 'signed_in',
      content: 'x',
      title: 'Untitled',
      lastChangeUser: { name: 'Team Owner' },
    });
    // 4 + the system version a content change keeps (docs/notes.md, Versions) + the live document's Query (docs/live.md)
    expectBudget(updated, 7);
    const deleted = await call('DELETE', `/v1/teams/${team.path}/notes/${n.id}`, { token: member.token });
    expect(deleted.status).toBe(204);
    // + the BatchWriteItem that takes the history entries out after the trash's transaction
    expectBudget(deleted, 5);
    expect((await call('GET', `/v1/teams/${team.path}/notes`, { token: owner.token })).body).toEqual([]);
  });

  it('a note of another team, or a personal note, is 404 under a team route', async () => {
    const me = await newUser();
    const t1 = await newTeam(me);
    const t2 = await newTeam(me);
    const inT1 = await createNote(me.token, {}, t1.path);
    const personal = await createNote(me.token);
    expect((await call('GET', `/v1/teams/${t2.path}/notes/${inT1.id}`, { token: me.token })).status).toBe(
      404,
    );
    expect((await call('GET', `/v1/teams/${t1.path}/notes/${personal.id}`, { token: me.token })).status).toBe(
      404,
    );
  });
});

describe('GetCurrentUser and ListTeams', () => {
  it('stay within budget', async () => {
    const me = await newUser();
    await newTeam(me);
    const res = await call('GET', '/v1/me', { token: me.token });
    expect(res.status).toBe(200);
    expectBudget(res, 3);
    const teams = await call('GET', '/v1/teams', { token: me.token });
    expect(teams.body).toHaveLength(1);
    expectBudget(teams, 3);
  });
});
