// Bad input on every Notes route: the right 4xx with the REST error body naming the offending
// field, never a 5xx. Every response is also checked against openapi/notes.json.
import { beforeAll, describe, expect, it } from 'vitest';
import { newTeam, newUser, type TestUser } from '../support/identity.ts';
import { call, createNote, multipart, PNG } from './helpers.ts';

let me: TestUser;
let teamPath: string;
let noteId: string;
let teamNoteId: string;

beforeAll(async () => {
  me = await newUser();
  teamPath = (await newTeam(me)).path;
  noteId = (await createNote(me.token)).id;
  teamNoteId = (await createNote(me.token, {}, teamPath)).id;
});

async function expectError(res: Awaited<ReturnType<typeof call>>, status: number, fields?: string[]) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({
    code: expect.any(Number),
    message: expect.any(String),
    description: expect.any(String),
  });
  if (fields)
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
}

const ROUTES = () =>
  [
    ['GET', '/v1/me'],
    ['GET', '/v1/teams'],
    ['GET', '/v1/history'],
    ['GET', '/v1/notes'],
    ['POST', '/v1/notes'],
    ['GET', `/v1/notes/${noteId}`],
    ['PATCH', `/v1/notes/${noteId}`],
    ['DELETE', `/v1/notes/${noteId}`],
    ['POST', `/v1/notes/${noteId}/images`],
    ['GET', `/v1/teams/${teamPath}/notes`],
    ['POST', `/v1/teams/${teamPath}/notes`],
    ['GET', `/v1/teams/${teamPath}/notes/${teamNoteId}`],
    ['PATCH', `/v1/teams/${teamPath}/notes/${teamNoteId}`],
    ['DELETE', `/v1/teams/${teamPath}/notes/${teamNoteId}`],
  ] as const;

describe('every route', () => {
  it('401 without a token, and with a malformed one', async () => {
    const image = multipart([{ name: 'image', data: PNG }]);
    for (const [method, path] of ROUTES()) {
      const input = path.endsWith('/images')
        ? { raw: image.raw, headers: image.headers }
        : { body: method === 'PATCH' ? {} : undefined };
      const res = await call(method, path, input);
      await expectError(res, 401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectError(
        await call(method, path, { ...input, headers: { ...input.headers, Authorization: 'Bearer nope' } }),
        401,
      );
    }
  });
});

describe.each([['/v1/notes'], ['/v1/teams/{team}/notes']])('create (%s)', (template) => {
  const path = () => template.replace('{team}', teamPath);
  it.each([
    ['wrong types', { title: 5, tags: 'a' }, ['title', 'tags']],
    ['wrong types beside an unknown field (ignored)', { content: 1, colour: 'red' }, ['content']],
    [
      'bad enums',
      { readPermission: 'everyone', commentPermission: 'nobody' },
      ['readPermission', 'commentPermission'],
    ],
    ['a bad permalink', { permalink: 'has space' }, ['permalink']],
    ['a non-object, non-string body', 42, ['body']],
    ['null', null, ['body']],
  ])('422 for %s', async (_name, body, fields) => {
    await expectError(await call('POST', path(), { token: me.token, body }), 422, fields);
  });

  it('422 for malformed JSON, 415 for another content type, 413 for oversize content', async () => {
    await expectError(
      await call('POST', path(), {
        token: me.token,
        raw: '{"content":',
        headers: { 'Content-Type': 'application/json' },
      }),
      422,
      ['body'],
    );
    await expectError(
      await call('POST', path(), {
        token: me.token,
        raw: 'content=x',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    await expectError(
      await call('POST', path(), { token: me.token, body: 'x'.repeat(300 * 1024 + 1) }),
      413,
      ['content'],
    );
  });
});

describe.each([['/v1/notes/{note}'], ['/v1/teams/{team}/notes/{teamNote}']])('update (%s)', (template) => {
  const path = () =>
    template.replace('{team}', teamPath).replace('{teamNote}', teamNoteId).replace('{note}', noteId);
  it.each([
    ['wrong types', { content: 1, readPermission: true }, ['content', 'readPermission']],
    ['a wrong type beside fields it ignores', { title: 1, publishType: 'view' }, ['title']],
    ['a string body', 'content', ['body']],
    [
      'inconsistent permissions',
      { readPermission: 'signed_in', writePermission: 'guest' },
      ['writePermission'],
    ],
  ])('422 for %s', async (_name, body, fields) => {
    await expectError(await call('PATCH', path(), { token: me.token, body }), 422, fields);
  });

  it('ignores fields it does not know and fields only creation has, as HackMD does', async () => {
    const res = await call('PATCH', path(), {
      token: me.token,
      body: { commentPermission: 'owners', publishType: 'view' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.publishType).toBe('edit');
  });

  it('422 for malformed JSON or no body, 415 for another content type, 413 for oversize content', async () => {
    await expectError(
      await call('PATCH', path(), {
        token: me.token,
        raw: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      422,
      ['body'],
    );
    await expectError(
      await call('PATCH', path(), { token: me.token, headers: { 'Content-Type': 'application/json' } }),
      422,
      ['body'],
    );
    await expectError(
      await call('PATCH', path(), { token: me.token, raw: 'x', headers: { 'Content-Type': 'text/plain' } }),
      415,
    );
    await expectError(
      await call('PATCH', path(), { token: me.token, body: { content: 'ü'.repeat(200 * 1024) } }),
      413,
      ['content'],
    );
  });
});

describe('path and query parameters', () => {
  it('400 naming noteId or teamPath when malformed', async () => {
    const bad = 'bad.id!';
    for (const [method, path, field] of [
      ['GET', `/v1/notes/${bad}`, 'noteId'],
      ['PATCH', `/v1/notes/${bad}`, 'noteId'],
      ['DELETE', `/v1/notes/${bad}`, 'noteId'],
      ['POST', `/v1/notes/${bad}/images`, 'noteId'],
      ['GET', `/v1/teams/${bad}/notes`, 'teamPath'],
      ['POST', `/v1/teams/${bad}/notes`, 'teamPath'],
      ['GET', `/v1/teams/${teamPath}/notes/${bad}`, 'noteId'],
      ['PATCH', `/v1/teams/${bad}/notes/${teamNoteId}`, 'teamPath'],
      ['DELETE', `/v1/teams/${teamPath}/notes/${bad}`, 'noteId'],
    ] as const) {
      const upload =
        method === 'POST' && path.endsWith('/images') ? multipart([{ name: 'image', data: PNG }]) : undefined;
      const res = await call(method, path, {
        token: me.token,
        body: method === 'PATCH' ? {} : undefined,
        raw: upload?.raw,
        headers: upload?.headers,
      });
      await expectError(res, 400, [field]);
    }
  });

  it.each(['0', '0.99', '1000.01', '1001', 'abc', 'NaN', 'Infinity', ''])(
    'GetHistory limit=%j is 400 naming limit',
    async (limit) => {
      await expectError(await call('GET', `/v1/history?limit=${limit}`, { token: me.token }), 400, ['limit']);
    },
  );

  it('GetHistory accepts the bounds', async () => {
    expect((await call('GET', '/v1/history?limit=1', { token: me.token })).status).toBe(200);
    expect((await call('GET', '/v1/history?limit=1000', { token: me.token })).status).toBe(200);
  });
});

describe('UploadNoteImage body', () => {
  it('415 for a non-multipart body; 422 naming image when the part is missing or another part is sent', async () => {
    const path = `/v1/notes/${noteId}/images`;
    await expectError(await call('POST', path, { token: me.token, body: { image: 'x' } }), 415);
    await expectError(
      await call('POST', path, { token: me.token, raw: PNG, headers: { 'Content-Type': 'image/png' } }),
      415,
    );
    const wrongName = multipart([{ name: 'file', filename: 'a.png', data: PNG }]);
    await expectError(
      await call('POST', path, { token: me.token, raw: wrongName.raw, headers: wrongName.headers }),
      422,
      ['file', 'image'],
    );
    // A text field named image is no file part.
    const field = multipart([{ name: 'image', data: 'x' }]);
    const res = await call('POST', path, { token: me.token, raw: field.raw, headers: field.headers });
    await expectError(res, 422, ['image']);
    expect(res.body.errors[0].message).toBe('a file part named image is required');
    const garbage = {
      raw: Buffer.from('not multipart'),
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    };
    await expectError(await call('POST', path, { token: me.token, ...garbage }), 422, ['body']);
  });
});

describe('field messages', () => {
  it('say what a query number received that is none (NaN, Infinity)', async () => {
    for (const limit of ['abc', 'Infinity']) {
      const res = await call('GET', `/v1/history?limit=${limit}`, { token: me.token });
      await expectError(res, 400, ['limit']);
      expect(res.body.errors[0].message).toBe(
        `Invalid input: expected number, received ${limit === 'abc' ? 'NaN' : limit}`,
      );
    }
  });

  it("are readable English sentences naming the limit (zod's English messages, lib/domain/schema.ts)", async () => {
    const body = { title: 'x'.repeat(257), tags: [''], readPermission: 'nobody', bogus: 1 };
    const res = await call('POST', '/v1/notes', { token: me.token, body });
    await expectError(res, 422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'title', message: 'Too big: expected string to have <=256 characters' },
        { field: 'tags.0', message: 'Too small: expected string to have >=1 characters' },
        { field: 'readPermission', message: 'Invalid option: expected one of "owner"|"signed_in"|"guest"' },
      ]),
    );
    // A field the API does not know is ignored, as HackMD ignores it.
    expect(res.body.errors.map((e: { field: string }) => e.field)).not.toContain('bogus');
  });
});
