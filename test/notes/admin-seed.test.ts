// The Notes seeder and admin commands, against the test stack's table.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../support/admin-cli.ts';
import { seedNotes } from '../../infra/seed/notes.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { http } from '../support/http.ts';
import { call } from './helpers.ts';

afterEach(() => vi.restoreAllMocks());

describe('seedNotes', () => {
  it('gives the demo user notes, the team notes, and one note every signed-in user can read', async () => {
    const [demo, alice, bob] = await Promise.all([newUser('Demo'), newUser('Alice'), newUser('Bob')]);
    const team = await newTeam(demo, [alice]);
    const lines = await seedNotes({
      demo: { ...demo },
      alice: { ...alice },
      bob: { ...bob },
      teamPath: team.path,
    });
    expect(lines.join('\n')).toContain(team.path);
    const mine = (await call('GET', '/v1/notes', { token: demo.token })).body;
    expect(mine).toHaveLength(4);
    expect((await call('GET', `/v1/teams/${team.path}/notes`, { token: alice.token })).body).toHaveLength(2);
    // One public note: its publishLink opens its page, for anyone.
    const open = mine.find((n: { readPermission: string }) => n.readPermission === 'guest');
    expect(new URL(open.publishLink).pathname).toBe(`/@${demo.userPath}/welcome`);
    const page = await http('GET', new URL(open.publishLink).pathname, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Welcome to the demo notes');
    expect(lines.join('\n')).toContain(`/@${demo.userPath}/welcome`);
    const shared = mine.find((n: { readPermission: string }) => n.readPermission === 'signed_in');
    expect((await call('GET', `/v1/notes/${shared.shortId}`, { token: bob.token })).status).toBe(200);
    expect(
      (await call('PATCH', `/v1/notes/${shared.shortId}`, { token: bob.token, body: { content: 'x' } }))
        .status,
    ).toBe(403);
  });
});

describe('admin notes commands', () => {
  it('create-note, list-notes, show-note, note-history, delete-note', async () => {
    const u = await newUser();
    const created = await admin('create-note', '--user', u.id, '--content', '# From the CLI');
    expect(created).toMatchObject({ title: 'From the CLI', userPath: u.userPath });
    expect((await admin('list-notes', '--user', u.id)).map((n: { id: string }) => n.id)).toEqual([
      created.id,
    ]);
    expect(await admin('show-note', '--user', u.id, '--note', created.shortId)).toMatchObject({
      content: '# From the CLI',
    });
    expect(
      (await admin('note-history', '--user', u.id, '--limit', '5')).map((n: { id: string }) => n.id),
    ).toEqual([created.id]);
    expect(await admin('delete-note', '--user', u.id, '--note', created.id)).toEqual({ deleted: created.id });
    expect(await admin('list-notes', '--user', u.id)).toEqual([]);
  });

  it('rejects bad input with a clear message', async () => {
    const u = await newUser();
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(admin('note-history', '--user', u.id, '--limit', '0')).rejects.toThrow(/1 to 1000/);
    await expect(admin('show-note', '--user', u.id, '--note', 'AAAAAAAAAA')).rejects.toThrow(
      /does not exist/,
    );
  });
});
