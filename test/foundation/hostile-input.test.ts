// Hostile input through HTTP (docs/validation.md "Hostile input"): each gets a clear 4xx
// in the API's dialect, and nothing is stored. JSON bodies: unpaired surrogates and `__proto__` keys
// (422 naming the field; `constructor` and `prototype` are ordinary keys), another charset (415); query strings with malformed percent-encoding (400);
// what Node's HTTP parser refuses (431, or 414 when the URL alone is over its 16 KB; a JSON body); a body over 10 MB from Node's http
// client as well as fetch (413, read in full).
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getNote } from '../../lib/notes/notes/adapters/dynamo-notes.ts';
import { baseUrl, http } from '../support/http.ts';
import { newUser } from '../support/identity.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
const json = { 'Content-Type': 'application/json' };
const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field).sort();

describe('JSON bodies', () => {
  it('unpaired surrogates in any string: 422 naming each field, nothing stored', async () => {
    const u = await newUser();
    // Raw text: JSON.stringify would keep "\ud800" escaped as well, but this is what a client sends.
    const note = await http('POST', '/v1/notes', {
      token: u.token,
      headers: json,
      raw: '{"title":"a\\ud800","content":"b\\udfff c","tags":["ok","\\udbff"]}',
    });
    expect(note.status).toBe(422);
    expect(note.body).toMatchObject({ code: 42200, message: 'Validation Failed' });
    expect(fieldsOf(note.body)).toEqual(['content', 'tags.1', 'title']);
    expect(note.body.errors[0].message).toMatch(/unpaired UTF-16 surrogate/);
    // A surrogate pair (an emoji written as escapes) is fine.
    const pair = await http('POST', '/v1/notes', {
      token: u.token,
      headers: json,
      raw: '{"title":"\\ud83d\\ude00"}',
    });
    expect(pair.status).toBe(200);
    expect(pair.body.title).toBe('😀');
    const list = await http('GET', '/v1/notes', { token: u.token });
    expect(list.body.map((n: { id: string }) => n.id)).toEqual([pair.body.id]);

    const transfer = await http('POST', '/api/transfers', {
      token: u.token,
      headers: json,
      raw: '{"amount":100,"currency":"usd","destination":"acct_\\ud800","metadata":{"k\\udc00":"v"}}',
    });
    expect(transfer.status).toBe(422);
    expect(fieldsOf(transfer.body)).toEqual(['destination', 'metadata.k\ufffd']);
    expect((await http('GET', '/api/transfers', { token: u.token })).body.data).toEqual([]);
  });

  it('__proto__ anywhere: 422 naming the field, not "not valid JSON"', async () => {
    const u = await newUser();
    const note = await http('POST', '/v1/notes', {
      token: u.token,
      headers: json,
      raw: '{"content":"x","__proto__":{"isAdmin":true}}',
    });
    expect(note.status).toBe(422);
    expect(note.body.errors).toEqual([{ field: '__proto__', message: 'The key __proto__ is not allowed' }]);
    const admin = await newUser('Admin', { admin: true });
    const transfer = await http('POST', '/api/transfers', {
      token: admin.token,
      headers: json,
      raw: '{"amount":1,"currency":"usd","destination":"a","metadata":{"__proto__":"x","deep":"y"},"list":[{"__proto__":1}]}',
    });
    expect(transfer.status).toBe(422);
    expect(fieldsOf(transfer.body)).toEqual(['list.0.__proto__', 'metadata.__proto__']);
    expect(JSON.stringify(transfer.body)).not.toMatch(/not valid JSON/);
  });

  it("constructor and prototype are ordinary keys of a user's maps: accepted and stored as sent", async () => {
    const u = await newUser();
    const metadata = { constructor: 'x', prototype: 'y', toString: 'z' };
    const transfer = await http('POST', '/api/transfers', {
      token: u.token,
      body: { amount: 100, currency: 'usd', destination: 'acct_1', metadata },
    });
    expect(transfer.status, transfer.text).toBe(201);
    expect(transfer.body.metadata).toEqual(metadata);
    const read = await http('GET', `/api/transfers/${transfer.body.id}`, { token: u.token });
    expect(read.body.metadata).toEqual(metadata);
    // Merging keys (POST update) reads the stored map as own keys only.
    const merged = await http('POST', `/api/transfers/${transfer.body.id}`, {
      token: u.token,
      body: { metadata: { constructor: '', hasOwnProperty: 'h' } },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.metadata).toEqual({ prototype: 'y', toString: 'z', hasOwnProperty: 'h' });

    const noteFeatures = { constructor: 'on', prototype: 'off' };
    const note = await http('POST', '/v1/notes', { token: u.token, body: { content: 'x', noteFeatures } });
    expect(note.status, note.text).toBe(200);
    // Not in HackMD's answers: read back as stored.
    expect((await getNote(note.body.shortId))?.note.noteFeatures).toEqual(noteFeatures);
  });

  it('a charset other than UTF-8: 415; UTF-8 spelled either way is fine', async () => {
    const u = await newUser();
    const body = Buffer.from('{"content":"x"}', 'utf16le');
    const res = await http('POST', '/v1/notes', {
      token: u.token,
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
      raw: body,
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 41500, description: expect.stringMatching(/UTF-8.*utf-16/) });
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json',
    ])
      expect(
        (
          await http('POST', '/v1/notes', {
            token: u.token,
            headers: { 'Content-Type': type },
            raw: '{"content":"x"}',
          })
        ).status,
        type,
      ).toBe(200);
  });
});

describe.skipIf(!local)('what the gateway refuses', () => {
  it('malformed percent-encoding in a query string: 400 in the dialect', async () => {
    const admin = await newUser('Admin', { admin: true });
    const bank = await http('GET', '/api/transfers?q=%zz', { token: admin.token });
    expect(bank.status).toBe(400);
    expect(bank.body).toMatchObject({ code: 40000, message: 'Bad request' });
    expect(bank.body.description).toMatch(/percent-encoding in the query string/);
    expect((await http('GET', '/api/v1/news?page=1&x=%E0%A4%A')).body).toEqual({
      error: true,
      response: 'badRequest',
    });
    expect((await http('GET', '/v1/notes?x=%ED%A0%80', { token: admin.token })).status).toBe(400); // a lone surrogate
    expect((await http('GET', '/api/transfers?q=100%25+sure', { token: admin.token })).status).toBe(200);
  });

  /** A raw request on its own connection: what Node's HTTP parser sees. */
  const raw = (text: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl());
      const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
      let data = '';
      socket.on('data', (d) => {
        data += d;
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
      socket.end(text);
    });

  it('headers over 16 KB: 431, a URL over 16 KB: 414, a malformed request: 400, each with a JSON body', async () => {
    const headers = await raw(`GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(headers.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(headers.body)).toMatchObject({
      code: 40000,
      description: expect.stringMatching(/headers/),
    });
    const url = await raw(`GET /api/v1/news?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url.status).toBe(414);
    expect(JSON.parse(url.body)).toEqual({ error: true, response: 'badRequest' });
    const longer = await raw(`GET /v1/notes?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longer.status).toBe(414);
    expect(JSON.parse(longer.body)).toMatchObject({ code: 40000 });
    const bad = await raw('GET /v1/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 40000 });
  });

  it("an 11 MB body: Node's http client and fetch both read the 413", async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    const viaHttp = await new Promise<{ status?: number; body: string; error?: string }>((resolve) => {
      const req = httpRequest(`${baseUrl()}/v1/notes`, {
        method: 'POST',
        agent: false,
        headers: { ...json, 'Content-Length': big.length },
      });
      let result: { status?: number; body: string; error?: string } = { body: '' };
      req.on('response', (res) => {
        result.status = res.statusCode;
        res.on('data', (d) => {
          result.body += d;
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        result = { ...result, error: err.code };
      });
      req.on('close', () => resolve(result));
      req.end(big);
    });
    expect(viaHttp.error).toBeUndefined();
    expect(viaHttp.status).toBe(413);
    expect(JSON.parse(viaHttp.body)).toMatchObject({ code: 41300 });
    const viaFetch = await http('POST', '/api/transfers', { raw: big, headers: json });
    expect(viaFetch.status).toBe(413);
    expect(viaFetch.body).toMatchObject({ code: 41300 });
  });
});
