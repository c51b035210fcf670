// Where a client written against HackMD meets HackMD's manners: request bodies ignore fields the API
// does not know (a known field of the wrong type is still a 422 naming it); error bodies carry
// HackMD's members for the route and status beside the REST dialect's; a create whose
// parentFolderId names no folder is 207 {note, error} with the note at the top level. Every response
// is checked against openapi/notes.json.
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, createNote } from './helpers.ts';

let me: TestUser;
beforeAll(async () => {
  me = await newUser();
});

describe('unknown fields', () => {
  it('are ignored on create and update, and never stored', async () => {
    const note = await createNote(me.token, {
      title: 'Loose',
      content: '# Loose',
      fromNewerClient: { a: 1 },
    });
    expect(note.title).toBe('Loose');
    expect(note).not.toHaveProperty('fromNewerClient');
    const res = await call('PATCH', `/v1/notes/${note.id}`, {
      token: me.token,
      body: { title: 'Looser', somethingNew: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.title).toBe('Looser');
    const read = await call('GET', `/v1/notes/${note.id}`, { token: me.token });
    expect(read.body).not.toHaveProperty('somethingNew');
    const folder = await call('POST', '/v1/folders', { token: me.token, body: { name: 'F', shade: 'red' } });
    expect(folder.status, folder.text).toBe(201);
  });

  it('a known field of the wrong type is still a 422 naming it, in both dialects', async () => {
    const res = await call('POST', '/v1/notes', { token: me.token, body: { title: 5, extra: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'title', message: 'Invalid input: expected string, received number' },
    ]);
    expect(res.body.message).toBe('Validation Failed');
    expect(res.body.details).toEqual({
      title: { message: 'Invalid input: expected string, received number' },
    });
  });
});

describe("HackMD's error members", () => {
  it('401 and 404 carry error (the description)', async () => {
    const anonymous = await call('GET', '/v1/notes');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe(anonymous.body.description);
    const missing = await call('GET', '/v1/notes/nosuchnote', { token: me.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: 40400,
      message: 'Not found',
      error: missing.body.description,
    });
    expect(typeof missing.body.error).toBe('string');
  });

  it('webhook routes carry error {message, code}', async () => {
    const res = await call('GET', '/v1/webhooks/00000000-0000-4000-8000-000000000000', { token: me.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ message: res.body.description, code: 'not_found' });
  });

  it('versions routes carry error_code, comments routes errorCode', async () => {
    const note = await createNote(me.token, { content: 'v' });
    const version = await call('GET', `/v1/notes/${note.id}/versions/00000000-0000-4000-8000-000000000000`, {
      token: me.token,
    });
    expect(version.status).toBe(404);
    expect(version.body).toMatchObject({ error_code: 'not_found', error: version.body.description });
    const comment = await call('GET', `/v1/notes/${note.id}/comments/00000000-0000-4000-8000-000000000000`, {
      token: me.token,
    });
    expect(comment.status).toBe(404);
    expect(comment.body).toMatchObject({ errorCode: 'not_found', error: comment.body.description });
  });
});

describe('a create with an unknown parentFolderId', () => {
  it('is 207 {note, error}: the note is created at the top level', async () => {
    const res = await call('POST', '/v1/notes', {
      token: me.token,
      body: { title: 'Homeless', parentFolderId: 'nosuchfolder' },
    });
    expect(res.status, res.text).toBe(207);
    expect(res.body.error).toMatch(/nosuchfolder/);
    expect(res.body.note.title).toBe('Homeless');
    expect(res.body.note.folderPaths).toEqual([]);
    const read = await call('GET', `/v1/notes/${res.body.note.id}`, { token: me.token });
    expect(read.status).toBe(200);
    const top = await call('GET', '/v1/notes', { token: me.token });
    expect(top.body.map((n: { id: string }) => n.id)).toContain(res.body.note.id);
  });

  it('replays the same 207 for a retry with the same Idempotency-Key', async () => {
    const opts = {
      token: me.token,
      body: { title: 'Once', parentFolderId: 'nosuchfolder' },
      headers: { 'Idempotency-Key': `k-${Date.now()}` },
    };
    const first = await call('POST', '/v1/notes', opts);
    const again = await call('POST', '/v1/notes', opts);
    expect([first.status, again.status]).toEqual([207, 207]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.note.id).toBe(first.body.note.id);
  });
});
