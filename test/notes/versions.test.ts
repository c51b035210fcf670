// Note versions over HTTP (HackMD's ListVersions, CreateVersion, UpdateVersion, GetVersion,
// CompareVersions): system versions kept on content changes and coalesced, naming rules and their
// 409/422 answers, the unified diff applied by `patch` and by the diff library, permissions, the
// largest content, and each route's DynamoDB request budget.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_BYTES } from '../../lib/notes/kernel/model.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote, expectBudget } from './helpers.ts';

const edit = (token: string, id: string, content: string) =>
  call('PATCH', `/v1/notes/${id}`, { token, body: { content } });
const versionsOf = (token: string, id: string, query = '') =>
  call('GET', `/v1/notes/${id}/versions${query}`, { token });

/** Applies a unified diff with the system's `patch` (GNU patch), as a user would. */
function gnuPatch(base: string, diff: string): string | undefined {
  if (spawnSync('patch', ['--version']).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'versions-patch-'));
  try {
    writeFileSync(join(dir, 'file'), base);
    writeFileSync(join(dir, 'diff'), diff);
    const run = spawnSync('patch', ['--silent', '--force', join(dir, 'file'), join(dir, 'diff')]);
    expect(run.status, String(run.stderr)).toBe(0);
    return readFileSync(join(dir, 'file'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('note versions', () => {
  it('after 20 concurrent content changes the newest system version holds the live content', async () => {
    const me = await newUser('Versions Racer');
    for (let round = 0; round < 2; round += 1) {
      const n = await createNote(me.token, { content: '# Race\n' });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => edit(me.token, n.id, `# Race\nround ${round}, edit ${i}\n`)),
      );
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      const live = (await call('GET', `/v1/notes/${n.id}`, { token: me.token })).body.content;
      const [newest] = (await versionsOf(me.token, n.id)).body.data;
      const kept = await call('GET', `/v1/notes/${n.id}/versions/${newest.id}`, { token: me.token });
      expect(kept.body.content, `round ${round}`).toBe(live);
    }
  });

  it('keeps one coalesced system version per window, with every editor in its authorship', async () => {
    const owner = await newUser('Versions Owner');
    const editor = await newUser('Versions Editor');
    const n = await createNote(owner.token, {
      content: '# Plan\n',
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    });
    expect((await versionsOf(owner.token, n.id)).body.data).toEqual([]);
    const first = await edit(owner.token, n.id, '# Plan\nstep 1\n');
    expect(first.status).toBe(200);
    // 6, and the live document's Query (docs/live.md).
    expectBudget(first, 7);
    expectBudget(await edit(editor.token, n.shortId, '# Plan\nstep 1\nstep 2\n'), 7);
    expectBudget(await edit(owner.token, n.id, '# Plan\nstep 1\nstep 2\nstep 3\n'), 7);
    // A change of the title alone is no content change: no version work.
    // (the editor's history entry, then the metadata: two single-item writes, no transaction)
    expectBudget(await call('PATCH', `/v1/notes/${n.id}`, { token: owner.token, body: { title: 'T' } }), 5);

    const list = await versionsOf(editor.token, n.id);
    expect(list.status).toBe(200);
    expectBudget(list, 4);
    expect(list.body.meta).toEqual({ total_pages: 1, total: 1, limit: 50, page: 1 });
    const [v] = list.body.data;
    expect(v).toMatchObject({
      name_source: 'system',
      created_by: null,
      description: null,
      content_available: true,
    });
    expect(v.authorship.map((a: { user_id: string }) => a.user_id)).toEqual([owner.id, editor.id]);
    expect(v.authorship[1].display_name).toBe('Versions Editor');

    const one = await call('GET', `/v1/notes/${n.id}/versions/${v.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expectBudget(one, 4);
    expect(one.body.content).toBe('# Plan\nstep 1\nstep 2\nstep 3\n');
  });

  it('names the live content: the system version in place, then 409 no_content_change', async () => {
    const me = await newUser('Namer');
    const n = await createNote(me.token, { content: 'a\n' });
    await edit(me.token, n.id, 'a\nb\n');
    const [system] = (await versionsOf(me.token, n.id)).body.data;

    const named = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'First draft', description: 'before review' },
    });
    expect(named.status).toBe(201);
    expectBudget(named, 6);
    expect(named.body).toMatchObject({
      id: system.id,
      name: 'First draft',
      name_source: 'user',
      description: 'before review',
      created_by: { user_id: me.id, display_name: 'Namer' },
    });

    const again = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'Again' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 40900,
      error_code: 'no_content_change',
      latest_version_id: system.id,
      latest_name_source: 'user',
    });

    // The next change starts a new system version (a named one is never coalesced into).
    await edit(me.token, n.id, 'a\nb\nc\n');
    const list = (await versionsOf(me.token, n.id)).body;
    expect(list.data.map((v: { name_source: string }) => v.name_source)).toEqual(['system', 'user']);
    // The named one kept the content it held when named; the newest holds the live content.
    const contentOf = async (id: string) =>
      (await call('GET', `/v1/notes/${n.id}/versions/${id}`, { token: me.token })).body.content;
    expect(await contentOf(system.id)).toBe('a\nb\n');
    expect(await contentOf(list.data[0].id)).toBe('a\nb\nc\n');
    expect(
      (await versionsOf(me.token, n.id, '?named_only=true')).body.data.map((v: { id: string }) => v.id),
    ).toEqual([system.id]);

    // Naming a system version by id, then once more: 409 version_already_named.
    const newest = list.data[0];
    const byId = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'Second', base: `version:${newest.id}` },
    });
    expect(byId.status).toBe(201);
    expect(byId.body).toMatchObject({ id: newest.id, name_source: 'user', name: 'Second' });
    const twice = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'Third', base: `version:${newest.id}` },
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      error_code: 'version_already_named',
      version_id: newest.id,
      name: 'Second',
    });
  });

  it('names content no change recorded (a new note) as a new version with no known authors', async () => {
    const me = await newUser('Fresh');
    const n = await createNote(me.token, { content: '# Fresh\n' });
    const res = await call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body: { name: 'v1' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'v1', name_source: 'user', authorship: [] });
    const got = await call('GET', `/v1/notes/${n.id}/versions/${res.body.id}`, { token: me.token });
    expect(got.body.content).toBe('# Fresh\n');
  });

  it('renames a named version (200) and refuses a system version (422 version_not_named)', async () => {
    const me = await newUser('Renamer');
    const n = await createNote(me.token, { content: 'x' });
    const named = (
      await call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body: { name: 'v1' } })
    ).body;
    const renamed = await call('PATCH', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { base: `version:${named.id}`, description: 'described' },
    });
    expect(renamed.status).toBe(200);
    expectBudget(renamed, 4);
    expect(renamed.body).toMatchObject({ id: named.id, name: 'v1', description: 'described' });
    expect(
      (
        await call('PATCH', `/v1/notes/${n.id}/versions`, {
          token: me.token,
          body: { base: `version:${named.id}`, name: 'v2' },
        })
      ).body.name,
    ).toBe('v2');

    await edit(me.token, n.id, 'y');
    const system = (await versionsOf(me.token, n.id)).body.data[0];
    const refused = await call('PATCH', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { base: `version:${system.id}`, name: 'nope' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error_code: 'version_not_named', version_id: system.id });
  });

  it('compares two states with a unified diff that patch applies to the base to give the target', async () => {
    const me = await newUser('Differ');
    const base = '# Title\n\nalpha\nbeta\ngamma\ndelta\n\nunchanged tail line 1\nline 2\nline 3\nline 4\n';
    const target =
      '# Title B\n\nalpha\ngamma\ndelta\nepsilon\n\nunchanged tail line 1\nline 2\nline 3\nline 4 changed\n';
    const n = await createNote(me.token, { content: base });
    const v1 = (await call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body: { name: 'base' } }))
      .body;
    await edit(me.token, n.id, target);
    const res = await call(
      'GET',
      `/v1/notes/${n.id}/versions/compare?base=version:${v1.id}&target=note_content`,
      { token: me.token },
    );
    expect(res.status).toBe(200);
    expectBudget(res, 5);
    const diff: string = res.body.unified_diff;
    expect(diff).toContain(`--- version:${v1.id}`);
    expect(diff).toContain('+++ note_content');
    expect(applyPatch(base, diff)).toBe(target);
    const patched = gnuPatch(base, diff);
    if (patched !== undefined) expect(patched).toBe(target);
    // And the other way round, between two versions.
    const v2 = (await versionsOf(me.token, n.id)).body.data[0];
    const back = await call(
      'GET',
      `/v1/notes/${n.id}/versions/compare?base=version:${v2.id}&target=version:${v1.id}`,
      {
        token: me.token,
      },
    );
    expect(applyPatch(target, back.body.unified_diff)).toBe(base);
    const same = await call(
      'GET',
      `/v1/notes/${n.id}/versions/compare?base=note_content&target=note_content`,
      {
        token: me.token,
      },
    );
    expect(applyPatch(target, same.body.unified_diff)).toBe(target);
  });

  it('answers each invalid request with a clear 4xx', async () => {
    const me = await newUser('Invalid');
    const n = await createNote(me.token, { content: 'x' });
    const post = (body: unknown) => call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body });
    for (const body of [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(81) },
      { name: 'ok', description: 'd'.repeat(501) },
      { name: 'ok', base: 'bogus' },
      { name: 1, extra: 1 },
      {},
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    expect((await post({ name: 'x'.repeat(80), description: 'd'.repeat(500) })).status).toBe(201);
    const unknown = '01938a6e-7a10-7c3e-9f5b-2a1d4c6e8f00';
    expect((await post({ name: 'ok', base: `version:${unknown}` })).status).toBe(404);
    expect((await call('GET', `/v1/notes/${n.id}/versions/${unknown}`, { token: me.token })).status).toBe(
      404,
    );
    expect((await call('GET', `/v1/notes/${n.id}/versions/not-a-uuid`, { token: me.token })).status).toBe(
      400,
    );
    const patch = (body: unknown) => call('PATCH', `/v1/notes/${n.id}/versions`, { token: me.token, body });
    expect((await patch({ base: `version:${unknown}` })).status).toBe(422); // neither name nor description
    expect((await patch({ base: 'note_content', name: 'x' })).status).toBe(422);
    expect((await patch({ base: `version:${unknown}`, name: 'x' })).status).toBe(404);
    const compare = (q: string) => call('GET', `/v1/notes/${n.id}/versions/compare${q}`, { token: me.token });
    expect((await compare('?base=note_content')).status).toBe(400);
    expect((await compare('?base=bogus&target=note_content')).status).toBe(400);
    expect((await compare(`?base=version:${unknown}&target=note_content`)).status).toBe(404);
    for (const q of ['?page=0', '?limit=0', '?limit=101', '?named_only=yes', '?created_after=yesterday']) {
      expect((await versionsOf(me.token, n.id, q)).status, q).toBe(400);
    }
    expect((await versionsOf(me.token, 'nonexistent')).status).toBe(404);
  });

  it('filters and pages the listing', async () => {
    const me = await newUser('Lister');
    const n = await createNote(me.token, { content: '0' });
    const ids: string[] = [];
    for (let i = 1; i <= 3; i += 1) {
      await edit(me.token, n.id, String(i));
      const res = await call('POST', `/v1/notes/${n.id}/versions`, {
        token: me.token,
        body: { name: `Release ${i}`, description: i === 2 ? 'the special one' : undefined },
      });
      ids.unshift(res.body.id);
    }
    const page = (q: string) => versionsOf(me.token, n.id, q).then((r) => r.body);
    expect((await page('')).data.map((v: { id: string }) => v.id)).toEqual(ids);
    const p2 = await page('?limit=2&page=2');
    expect(p2.meta).toEqual({ total_pages: 2, total: 3, limit: 2, page: 2 });
    expect(p2.data.map((v: { id: string }) => v.id)).toEqual([ids[2]]);
    expect((await page('?q=SPECIAL')).data.map((v: { name: string }) => v.name)).toEqual(['Release 2']);
    expect((await page(`?created_by=${me.id}`)).meta.total).toBe(3);
    expect((await page('?created_by=someone-else')).meta.total).toBe(0);
    expect((await page('?created_after=2999-01-01T00:00:00Z')).meta.total).toBe(0);
    expect((await page('?created_before=2999-01-01T00:00:00Z')).meta.total).toBe(3);
  });

  it('reading needs read access, naming needs write access; team notes by their id', async () => {
    const owner = await newUser('V Owner');
    const reader = await newUser('V Reader');
    const stranger = await newUser('V Stranger');
    const shared = await createNote(owner.token, { content: 'r', readPermission: 'signed_in' });
    const named = (
      await call('POST', `/v1/notes/${shared.id}/versions`, { token: owner.token, body: { name: 'n' } })
    ).body;
    expect((await versionsOf(reader.token, shared.id)).status).toBe(200);
    expect(
      (await call('GET', `/v1/notes/${shared.id}/versions/${named.id}`, { token: reader.token })).status,
    ).toBe(200);
    const denied = await call('POST', `/v1/notes/${shared.id}/versions`, {
      token: reader.token,
      body: { name: 'x' },
    });
    expect(denied.status).toBe(403);
    expect(
      (
        await call('PATCH', `/v1/notes/${shared.id}/versions`, {
          token: reader.token,
          body: { base: `version:${named.id}`, name: 'x' },
        })
      ).status,
    ).toBe(403);
    const secret = await createNote(owner.token, { content: 's' });
    expect((await versionsOf(stranger.token, secret.id)).status).toBe(404);
    expect(
      (await call('POST', `/v1/notes/${secret.id}/versions`, { token: stranger.token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await versionsOf('not-a-token', secret.id)).status).toBe(401);

    const member = await newUser('V Member');
    const team = await newTeam(owner, [member]);
    const teamNote = await createNote(owner.token, { content: 't' }, team.path);
    await call('PATCH', `/v1/teams/${team.path}/notes/${teamNote.id}`, {
      token: member.token,
      body: { content: 't2' },
    });
    const list = await versionsOf(member.token, teamNote.id);
    expect(list.status).toBe(200);
    expect(list.body.data[0].authorship[0].user_id).toBe(member.id);
    expect(
      (
        await call('POST', `/v1/notes/${teamNote.id}/versions`, {
          token: member.token,
          body: { name: 'team' },
        })
      ).status,
    ).toBe(201);
    expect((await versionsOf(stranger.token, teamNote.id)).status).toBe(404);
  });

  it(`versions a note of the largest allowed content (${MAX_CONTENT_BYTES} bytes)`, async () => {
    const me = await newUser('Big');
    const n = await createNote(me.token, { content: 'small' });
    // Text that barely compresses: the worst case of an item's size.
    const big = Array.from(randomBytes(MAX_CONTENT_BYTES), (b) => String.fromCharCode(33 + (b % 94))).join(
      '',
    );
    const res = await edit(me.token, n.id, big);
    expect(res.status).toBe(200);
    const [v] = (await versionsOf(me.token, n.id)).body.data;
    const got = await call('GET', `/v1/notes/${n.id}/versions/${v.id}`, { token: me.token });
    expect(got.body.content).toBe(big);
    const named = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'big' },
    });
    expect(named.status).toBe(201);
    expect(named.body.id).toBe(v.id);
  });
});
