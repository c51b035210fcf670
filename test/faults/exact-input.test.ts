// Exact input over HTTP: map keys that are Object.prototype's names (`constructor` and `prototype`
// included) are stored as sent, except `__proto__`, refused by name; a currency is three ASCII letters; a multipart
// body holds exactly one part, named image; polyglot images are refused; images are served as
// their detected type with nosniff and a CSP that runs nothing.
import { describe, expect, it } from 'vitest';
import { call as bank, expectError } from '../bank/helpers.ts';
import { call as notes, GIF, multipart, PNG } from '../notes/helpers.ts';
import { http } from '../support/http.ts';
import { newTeam, newUser } from '../support/identity.ts';

const PROTOTYPE_NAMES = [
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'constructor',
  'prototype',
];
const prototypeKeys = Object.fromEntries(PROTOTYPE_NAMES.map((k, i) => [k, `v${i}`]));

describe('map keys named like Object.prototype members', () => {
  it('transfer metadata: create, PUT and POST store them and read them back', async () => {
    const u = await newUser();
    const created = await bank('POST', '/api/transfers', {
      token: u.token,
      body: { amount: 5, currency: 'usd', destination: 'acct', metadata: prototypeKeys },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata).toEqual(prototypeKeys);
    const id = created.body.id as string;
    const put = await bank('PUT', `/api/transfers/${id}`, {
      token: u.token,
      body: { metadata: { toString: 'put' } },
    });
    expect(put.status, put.text).toBe(200);
    const post = await bank('POST', `/api/transfers/${id}`, {
      token: u.token,
      body: { metadata: { valueOf: 'post' } },
    });
    expect(post.status, post.text).toBe(200);
    const read = await bank('GET', `/api/transfers/${id}`, { token: u.token });
    expect(read.body.metadata).toEqual(post.body.metadata);
    expect(read.body.metadata).toMatchObject({ valueOf: 'post' });
  });

  it('note noteFeatures on personal and team creates', async () => {
    const u = await newUser();
    const team = await newTeam(u);
    for (const path of ['/v1/notes', `/v1/teams/${team.path}/notes`]) {
      const res = await notes('POST', path, {
        token: u.token,
        body: { content: 'x', noteFeatures: prototypeKeys },
      });
      expect(res.status, res.text).toBe(200);
    }
  });

  it('`__proto__` is refused (422 naming the key): the one key that reaches a prototype', async () => {
    const u = await newUser();
    const raw = '{"amount":5,"currency":"usd","destination":"a","metadata":{"__proto__":"x"}}';
    const res = await bank('POST', '/api/transfers', {
      token: u.token,
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 422, ['metadata.__proto__']);
    const note = await notes('POST', '/v1/notes', {
      token: u.token,
      raw: '{"noteFeatures":{"__proto__":"x"}}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(note.status, note.text).toBe(422);
    expect((await bank('GET', '/api/transfers', { token: u.token })).body.data).toEqual([]);
  });
});

describe('currency', () => {
  it('is exactly three ASCII letters before the ISO 4217 check (no case folding into ASCII)', async () => {
    const u = await newUser();
    for (const currency of ['uſd', 'ınr', 'US D', 'usdd', 'us', 'ｕｓｄ', 'USD\u0000']) {
      const res = await bank('POST', '/api/transfers', {
        token: u.token,
        body: { amount: 5, currency, destination: 'a' },
      });
      expectError(res, 422, ['currency']);
    }
    const listed = await bank('GET', '/api/transfers?currency=%C5%BFsd', { token: u.token });
    expect(listed.status).toBe(400);
    const ok = await bank('POST', '/api/transfers', {
      token: u.token,
      body: { amount: 5, currency: 'UsD', destination: 'a' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.currency).toBe('usd');
  });
});

describe('image uploads', () => {
  const upload = async (token: string, noteId: string, parts: Parameters<typeof multipart>[0]) => {
    const form = multipart(parts);
    return notes('POST', `/v1/notes/${noteId}/images`, { token, raw: form.raw, headers: form.headers });
  };

  it('anything but exactly one part named image is 422 naming the part', async () => {
    const u = await newUser();
    const note = await notes('POST', '/v1/notes', { token: u.token, body: { content: 'x' } });
    const image = { name: 'image', filename: 'a.png', type: 'image/png', data: PNG };
    const cases: Array<[Parameters<typeof multipart>[0], string]> = [
      [[image, image], 'image'],
      [[image, { ...image, name: 'image2' }], 'image2'],
      [[image, { name: 'caption', data: 'hello' }], 'caption'],
      [[{ ...image, name: 'file' }], 'file'],
      [[], 'image'],
    ];
    for (const [parts, field] of cases) {
      const res = await upload(u.token, note.body.id, parts);
      expect(res.status, `${parts.map((p) => p.name).join('+')}: ${res.text}`).toBe(422);
      expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toContain(field);
    }
  });

  it('polyglots are refused: PNG with HTML appended, GIF that is also JavaScript', async () => {
    const u = await newUser();
    const note = await notes('POST', '/v1/notes', { token: u.token, body: { content: 'x' } });
    const pngHtml = Buffer.concat([PNG, Buffer.from('<html><body><script>alert(1)</script></body></html>')]);
    const gifJs = Buffer.from(GIF);
    gifJs.write('/*', 6, 'latin1');
    const gifJsBody = Buffer.concat([gifJs, Buffer.from('*/=1;alert(document.domain);')]);
    for (const data of [pngHtml, gifJsBody]) {
      const res = await upload(u.token, note.body.id, [
        { name: 'image', filename: 'a.png', type: 'image/png', data },
      ]);
      expect(res.status, res.text).toBe(415);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'image' })]);
    }
  });

  // The runner's /_images route (frontdoor) sends nosniff and the CSP; deployed, CloudFront's response
  // headers policy of template.yaml does.
  it("an image is served as its detected type with nosniff and CSP default-src 'none'", async () => {
    const u = await newUser();
    const note = await notes('POST', '/v1/notes', { token: u.token, body: { content: 'x' } });
    const res = await upload(u.token, note.body.id, [
      { name: 'image', filename: 'a.gif', type: 'text/html', data: GIF },
    ]);
    expect(res.status, res.text).toBe(200);
    const served = await http('GET', new URL(res.body.data.link).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/gif');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });
});
