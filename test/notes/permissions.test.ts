// Who may do what (docs/notes.md, "Decisions", Who): owner, team member, non-member, and another signed-in user
// under each readPermission/writePermission. A note the caller may not read is 404.
import { describe, expect, it } from 'vitest';
import { newTeam, newUser, type TestUser } from '../support/identity.ts';
import { call, createNote, multipart, PNG } from './helpers.ts';

const read = (u: TestUser, id: string) =>
  call('GET', `/v1/notes/${id}`, { token: u.token }).then((r) => r.status);
const write = (u: TestUser, id: string) =>
  call('PATCH', `/v1/notes/${id}`, { token: u.token, body: { content: `by ${u.name}` } }).then(
    (r) => r.status,
  );
const manage = (u: TestUser, id: string) =>
  call('PATCH', `/v1/notes/${id}`, { token: u.token, body: { readPermission: 'guest' } }).then(
    (r) => r.status,
  );
const upload = (u: TestUser, id: string) => {
  const body = multipart([{ name: 'image', filename: 'a.png', data: PNG }]);
  return call('POST', `/v1/notes/${id}/images`, {
    token: u.token,
    raw: body.raw,
    headers: body.headers,
  }).then((r) => r.status);
};
const remove = (u: TestUser, id: string) =>
  call('DELETE', `/v1/notes/${id}`, { token: u.token }).then((r) => r.status);

describe('personal notes', () => {
  it.each([
    // readPermission, writePermission, expected for another signed-in user: read, write, upload, manage, delete
    ['owner', 'owner', 404, 404, 404, 404, 404],
    ['signed_in', 'owner', 200, 403, 403, 403, 403],
    ['signed_in', 'signed_in', 200, 200, 200, 403, 403],
    ['guest', 'guest', 200, 200, 200, 403, 403],
  ] as const)(
    'read %s / write %s: the owner may do everything; another user %i/%i/%i/%i/%i',
    async (r, w, otherRead, otherWrite, otherUpload, otherManage, otherDelete) => {
      const owner = await newUser('Owner');
      const other = await newUser('Other');
      const n = await createNote(owner.token, { content: 'x', readPermission: r, writePermission: w });
      expect(await read(other, n.id)).toBe(otherRead);
      expect(await write(other, n.id)).toBe(otherWrite);
      expect(await upload(other, n.id)).toBe(otherUpload);
      expect(await manage(other, n.id)).toBe(otherManage);
      expect(await remove(other, n.id)).toBe(otherDelete);
      expect(await read(owner, n.id)).toBe(200);
      expect(await write(owner, n.id)).toBe(200);
      expect(await upload(owner, n.id)).toBe(200);
      expect(await manage(owner, n.id)).toBe(200);
      expect(await remove(owner, n.id)).toBe(204);
    },
  );

  it("a team member has no rights on a member's personal note", async () => {
    const a = await newUser();
    const b = await newUser();
    await newTeam(a, [b]);
    const n = await createNote(a.token);
    expect(await read(b, n.id)).toBe(404);
  });
});

describe('team notes', () => {
  it('members may do everything; a non-member gets 403 on team routes and 404 on the note', async () => {
    const owner = await newUser();
    const member = await newUser('Member');
    const outsider = await newUser('Outsider');
    const team = await newTeam(owner, [member]);
    const n = await createNote(owner.token, { content: 'team' }, team.path);

    expect(await read(member, n.id)).toBe(200);
    expect(await write(member, n.id)).toBe(200);
    expect(await upload(member, n.id)).toBe(200);
    expect(await manage(member, n.id)).toBe(200);

    for (const [method, path, body] of [
      ['GET', `/v1/teams/${team.path}/notes`, undefined],
      ['POST', `/v1/teams/${team.path}/notes`, { content: 'x' }],
      ['GET', `/v1/teams/${team.path}/notes/${n.id}`, undefined],
      ['PATCH', `/v1/teams/${team.path}/notes/${n.id}`, { content: 'x' }],
      ['DELETE', `/v1/teams/${team.path}/notes/${n.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: outsider.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe(40300);
    }
    expect((await call('GET', '/v1/teams/no-such-team-x/notes', { token: outsider.token })).status).toBe(404);
    expect(
      (await call('POST', '/v1/teams/no-such-team-x/notes', { token: outsider.token, body: 'x' })).status,
    ).toBe(404);

    // readPermission guest (set by the member above) opens reading to anyone signed in, writing stays with members.
    expect(await read(outsider, n.id)).toBe(200);
    expect(await write(outsider, n.id)).toBe(403);
    expect(await remove(outsider, n.id)).toBe(403);
    expect(await remove(member, n.id)).toBe(204);
  });

  it('a team note with owner permissions is 404 to a non-member on the personal route', async () => {
    const owner = await newUser();
    const outsider = await newUser();
    const team = await newTeam(owner);
    const n = await createNote(owner.token, {}, team.path);
    expect(await read(outsider, n.id)).toBe(404);
    expect(await write(outsider, n.id)).toBe(404);
    expect(await remove(outsider, n.id)).toBe(404);
  });
});
