// Where this API and HackMD's clients and the Notes interface document once disagreed: the history `limit` typed
// as a double, hackmd-cli's `--writePermission` sent alone, and a 405 to a valid token that carried
// no rate-limit headers although every response to a valid token carries them (docs/notes.md).
import { API } from '@hackmd/api';
import { describe, expect, it } from 'vitest';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import { baseUrl, CLIENT_TIMEOUT_MS, http } from '../support/http.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote } from './helpers.ts';

const ids = (res: { body: { id: string }[] }) => res.body.map((n) => n.id);

describe('GET /v1/history?limit= (a double in the Notes interface document)', () => {
  it('takes any number from 1 to 1000 and rounds it down', async () => {
    const me = await newUser();
    const [a, b, c] = [
      await createNote(me.token, 'a'),
      await createNote(me.token, 'b'),
      await createNote(me.token, 'c'),
    ];
    const newestFirst = [c.id, b.id, a.id];
    for (const [limit, count] of [
      ['2.5', 2],
      ['1.99', 1],
      ['1', 1],
      ['3.0', 3],
      ['2e0', 2],
      ['1000.0', 3],
    ] as const) {
      const res = await call('GET', `/v1/history?limit=${limit}`, { token: me.token });
      expect(res.status, `limit=${limit}`).toBe(200);
      expect(ids(res), `limit=${limit}`).toEqual(newestFirst.slice(0, count));
    }
  });
});

describe('writePermission sent alone (hackmd-cli --writePermission)', () => {
  it("widens readPermission to match on a team note created through HackMD's client, as hackmd-cli does", async () => {
    const owner = await newUser('CLI Owner');
    const member = await newUser('CLI Member');
    const outsider = await newUser('CLI Outsider');
    const team = await newTeam(owner, [member]);
    const api = new API(member.token, `${baseUrl()}/v1`, {
      wrapResponseErrors: true,
      timeout: CLIENT_TIMEOUT_MS,
    });
    // What `hackmd-cli team-notes create --teamPath=... --writePermission=signed_in` sends.
    const note = await api.createTeamNote(team.path, {
      title: 'CLI note',
      writePermission: 'signed_in' as never,
    });
    expect({ read: note.readPermission, write: note.writePermission }).toEqual({
      read: 'signed_in',
      write: 'signed_in',
    });
    // It means what it says: a signed-in user outside the team may now read and write it.
    const res = await call('PATCH', `/v1/notes/${note.id}`, {
      token: outsider.token,
      body: { content: 'hello' },
    });
    expect(res.status).toBe(200);
  });

  it('widens read on a personal create and on an update; never narrows; both sent and inconsistent is 422', async () => {
    const me = await newUser();
    const created = await call('POST', '/v1/notes', { token: me.token, body: { writePermission: 'guest' } });
    expect(created.status).toBe(200);
    expect([created.body.readPermission, created.body.writePermission]).toEqual(['guest', 'guest']);

    const note = await createNote(me.token, { readPermission: 'guest', writePermission: 'owner' });
    const same = await call('PATCH', `/v1/notes/${note.id}`, {
      token: me.token,
      body: { writePermission: 'signed_in' },
    });
    expect([same.body.readPermission, same.body.writePermission]).toEqual(['guest', 'signed_in']);

    const closed = await createNote(me.token, {});
    const widened = await call('PATCH', `/v1/notes/${closed.id}`, {
      token: me.token,
      body: { writePermission: 'guest' },
    });
    expect(widened.status).toBe(200);
    expect([widened.body.readPermission, widened.body.writePermission]).toEqual(['guest', 'guest']);

    const both = await call('POST', '/v1/notes', {
      token: me.token,
      body: { readPermission: 'owner', writePermission: 'signed_in' },
    });
    expect(both.status).toBe(422);
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(['writePermission']);
    // read sent alone, narrower than the note's write: still refused, never silently narrowing write
    const narrowing = await call('PATCH', `/v1/notes/${closed.id}`, {
      token: me.token,
      body: { readPermission: 'owner' },
    });
    expect(narrowing.status).toBe(422);
  });
});

describe('405 to a valid token', () => {
  it('is counted and carries X-RateLimit-*; without a valid token it is the same 405 without them', async () => {
    const user = await newUser('Wrong Method');
    const token = await fullIdentity().issueToken(user.id, { rateLimit: 3 });
    const me = await call('GET', '/v1/me', { token });
    expect(me.headers.get('x-ratelimit-userremaining')).toBe('2');
    const wrong = await http('PUT', '/v1/me', { token });
    expect(wrong.status).toBe(405);
    expect(wrong.body.code).toBe(40500);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect(wrong.headers.get('x-ratelimit-userlimit')).toBe('3');
    expect(wrong.headers.get('x-ratelimit-userremaining')).toBe('1');
    expect(Number(wrong.headers.get('x-ratelimit-userreset'))).toBe(
      Number(me.headers.get('x-ratelimit-userreset')),
    );

    await http('PUT', '/v1/me', { token });
    const over = await http('PUT', '/v1/me', { token });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.headers.get('x-ratelimit-userremaining')).toBe('0');

    for (const anonymous of [undefined, 'tri_not_a_token']) {
      const res = await http('PUT', '/v1/me', { token: anonymous });
      expect(res.status).toBe(405);
      expect(res.headers.get('x-ratelimit-userlimit')).toBeNull();
    }
  });
});
