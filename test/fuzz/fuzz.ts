// Property-based fuzzing of every route of the three OpenAPI documents (openapi/*.json, generated
// from the valibot schemas; the foundation tests tie them to template.yaml's routes), against the
// running stack. Requests are built from each operation's documented parameters and request
// schema, with hostile values mixed in: keys named like Object.prototype members, case-folding
// letters (ſ ı K), NUL, long strings, huge and negative numbers, arbitrary JSON, odd headers.
// Properties: never a 5xx; every response matches the operation in the API's OpenAPI document;
// what a 2xx write stored reads back as it was answered (and sent).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { hostileFields } from '../../lib/http/json-body.ts';
import { http, type HttpResponse } from '../support/http.ts';
import { documentedPath, expectDocumented } from '../support/openapi.ts';

type Api = 'notes' | 'news' | 'bank';
type Schema = Record<string, any>;
interface Doc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
  security?: unknown;
}
interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
export interface Operation {
  api: Api;
  method: string;
  path: string;
  params: Param[];
  body?: { schema?: Schema; type: string; required: boolean };
  auth: boolean;
}

const docs = Object.fromEntries(
  (['notes', 'news', 'bank'] as const).map((api) => [
    api,
    JSON.parse(readFileSync(join(ROOT, 'openapi', `${api}.json`), 'utf8')) as Doc,
  ]),
) as Record<Api, Doc>;

/** Every operation of every API, from its OpenAPI document. */
export const operations: Operation[] = (Object.entries(docs) as [Api, Doc][]).flatMap(([api, doc]) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => {
        const [type, media] =
          Object.entries((op.requestBody?.content ?? {}) as Record<string, { schema?: Schema }>)[0] ?? [];
        return {
          api,
          method: method.toUpperCase(),
          path,
          params: (op.parameters ?? []) as Param[],
          body: op.requestBody
            ? { schema: media?.schema, type: type!, required: Boolean(op.requestBody.required) }
            : undefined,
          auth: Boolean(op.security ?? doc.security),
        };
      }),
  ),
);

// ---- hostile values ------------------------------------------------------------------------
export const NASTY_KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
/** Unpaired UTF-16 surrogates: valid in a JS string and in JSON escapes, not Unicode text. */
const LONE_SURROGATES = ['\ud800', 'a\udc00b', '\udbff\ud800', 'x\udfff'];
const FOLDING = ['ſ', 'ı', 'K', 'İ', 'ß', 'ﬀ'];
const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...NASTY_KEYS,
    ...FOLDING,
    ...LONE_SURROGATES,
    'uſd',
    'ınr',
    'usd',
    'EUR',
    '\u0000',
    'a\u0000b',
    '',
    ' ',
    '..',
    '%00',
    '%2F',
    '<script>alert(1)</script>',
    'null',
    '1e309',
    '-0',
    '9007199254740993',
    '-1',
    '0',
    '1',
  ),
  fc.string({
    unit: fc.constantFrom(
      ...FOLDING,
      '\u0000',
      '\ud800',
      '\udc00',
      'a',
      'Z',
      '0',
      '9',
      '-',
      '_',
      ' ',
      '#',
      '[',
      ']',
      'é',
      '😀',
      '\n',
    ),
    maxLength: 24,
  }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer({ min: 100, max: 12_000 }).map((n) => 'x'.repeat(n)),
);
const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e308,
    -1e308,
    0.5,
    1e-7,
    99_999_999,
    100_000_000,
    259_200,
    259_201,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const nastyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_KEYS),
  nastyString.filter((s) => s.length <= 60),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values shaped by a JSON schema, with hostile ones mixed in. */
function shaped(schema: Schema | undefined, doc: Doc, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return json;
  if (schema.$ref)
    return shaped(doc.components?.schemas?.[String(schema.$ref).split('/').pop()!], doc, depth + 1);
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.const !== undefined) options.push(fc.constant(schema.const));
  if (schema.enum) options.push(fc.constantFrom(...schema.enum));
  for (const s of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) options.push(shaped(s, doc, depth + 1));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const type of types) {
    if (type === 'string') options.push(nastyString);
    if (type === 'integer' || type === 'number') {
      const lo = schema.minimum ?? 0;
      const hi = schema.maximum ?? 1_000_000;
      options.push(fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31) }), nastyNumber);
    }
    if (type === 'boolean') options.push(fc.boolean());
    if (type === 'null') options.push(fc.constant(null));
    if (type === 'array') options.push(fc.array(shaped(schema.items, doc, depth + 1), { maxLength: 4 }));
    if (type === 'object' || (!schema.type && schema.properties)) {
      const props = Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, s]) => [
          k,
          shaped(s, doc, depth + 1),
        ]),
      );
      const known = fc.record(props, { requiredKeys: [] });
      const extra =
        typeof schema.additionalProperties === 'object'
          ? fc.dictionary(nastyKey, shaped(schema.additionalProperties, doc, depth + 1), { maxKeys: 5 })
          : fc.oneof(
              { weight: 4, arbitrary: fc.constant({}) },
              { weight: 1, arbitrary: fc.dictionary(nastyKey, json, { maxKeys: 2 }) },
            );
      // Object.assign would turn an own "__proto__" into a prototype: define every key as data.
      options.push(
        fc
          .tuple(known, extra)
          .map(([a, b]) => Object.fromEntries([...Object.entries(b), ...Object.entries(a)])),
      );
    }
  }
  if (!options.length) options.push(json);
  return fc.oneof({ weight: 6, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: json });
}

// ---- requests ------------------------------------------------------------------------------
export interface Fixtures {
  token: string;
  ids: Record<string, string[]>;
}

/** A value as a query string holds it (objects as JSON: one with a `toString` key has no String()). */
const asText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '').slice(0, 2000);
/** URLs stay under API Gateway's 10 KB (Node's server refuses 16 KB of headers with 431 before any route). */
const urlSafe = (s: string) => s.slice(0, 1_500);

export interface FuzzRequest {
  op: Operation;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: unknown;
  raw?: string;
  auth: 'token' | 'none' | 'bogus';
}

export function request(op: Operation, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const doc = docs[op.api];
  const pathParams = op.params.filter((p) => p.in === 'path');
  const known = (name: string) => fixtures.ids[name] ?? [];
  const pathArb = fc
    .tuple(
      ...pathParams.map((p) =>
        fc
          .oneof(
            { weight: 3, arbitrary: known(p.name).length ? fc.constantFrom(...known(p.name)) : nastyString },
            { weight: 1, arbitrary: nastyString },
          )
          .map(urlSafe)
          // `.` and `..` are dot segments: every client (fetch too) resolves them away before sending.
          .filter((s) => s.length > 0 && s !== '.' && s !== '..'),
      ),
    )
    .map((values) =>
      pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, encode(values[i])), op.path),
    );
  const queryArb = fc
    .tuple(
      fc.tuple(
        ...op.params
          .filter((p) => p.in === 'query')
          .map((p) =>
            fc.option(
              fc
                .oneof(shaped(p.schema, doc).map(asText), nastyString)
                .map((v) => [p.name, urlSafe(v)] as [string, string]),
              { nil: undefined },
            ),
          ),
      ),
      fc.array(fc.tuple(nastyKey, nastyString.map(urlSafe)), { maxLength: 2 }),
    )
    .map(([documented, extra]) => [
      ...documented.filter((q): q is [string, string] => q !== undefined),
      ...extra,
    ]);
  const headersArb = fc
    .tuple(
      fc.tuple(
        ...op.params
          .filter((p) => p.in === 'header')
          .map((p) =>
            fc.option(
              nastyString.map((v) => [p.name, headerSafe(v)] as const),
              { nil: undefined },
            ),
          ),
      ),
      fc.array(fc.tuple(fc.constantFrom(...NASTY_KEYS), nastyString.map(headerSafe)), { maxLength: 2 }),
    )
    .map(([documented, extra]) =>
      Object.fromEntries([...documented.filter((h) => h !== undefined), ...extra]),
    );
  const bodyArb: fc.Arbitrary<{ body?: unknown; raw?: string }> =
    op.body?.type !== 'application/json'
      ? fc.constant({})
      : fc.oneof(
          { weight: 8, arbitrary: shaped(op.body.schema, doc).map((body) => ({ body })) },
          { weight: 1, arbitrary: fc.constant({}) },
          {
            weight: 1,
            arbitrary: fc
              .oneof(
                fc.constantFrom('{', '[1,', '{"a":1}{', 'nul', '"\\ud800"', '{"__proto__":{"x":1}}'),
                nastyString,
              )
              .map((raw) => ({ raw })),
          },
        );
  return fc
    .record({
      path: pathArb,
      query: queryArb,
      headers: headersArb,
      body: bodyArb,
      auth: fc.constantFrom<FuzzRequest['auth']>('token', 'token', 'token', 'token', 'none', 'bogus'),
    })
    .map(({ path, query, headers, body, auth }) => {
      const r: FuzzRequest = { op, path, query, headers, ...body, auth };
      // Reports show the request, not the operation's schema.
      return Object.assign(r, {
        [fc.toStringMethod]: () =>
          JSON.stringify({
            request: `${op.method} ${path}${queryString(query)}`,
            headers,
            body: body.body,
            raw: body.raw,
            auth,
          }),
      });
    });
}

/** encodeURIComponent, except that an unpaired surrogate goes as its WTF-8 bytes (%ED%A0%80), as a hostile client sends it. */
const encode = (s: string) =>
  s
    .split(/(\p{Cs})/u)
    .map((part) =>
      /^\p{Cs}$/u.test(part)
        ? [
            0xe0 | (part.charCodeAt(0) >> 12),
            0x80 | ((part.charCodeAt(0) >> 6) & 0x3f),
            0x80 | (part.charCodeAt(0) & 0x3f),
          ]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('');
const queryString = (q: [string, string][]) =>
  q.length ? `?${q.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';

/** Sends the request and checks the properties; returns the response. */
export async function check(r: FuzzRequest, fixtures: Fixtures): Promise<HttpResponse> {
  const headers = { ...r.headers };
  if (r.raw !== undefined) headers['Content-Type'] = 'application/json';
  const token = r.auth === 'token' ? fixtures.token : r.auth === 'bogus' ? 'tri_bogus' : undefined;
  const url = `${r.path}${queryString(r.query)}`;
  const res = await http(r.op.method, url, {
    token: r.op.auth ? token : undefined,
    headers,
    body: r.body,
    raw: r.raw,
  });
  const what = `${r.op.method} ${url.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeLessThan(500);
  // A lone surrogate in the URL (sent as its WTF-8 bytes): the gateway's 400, before any operation
  // (so no operation documents it); a forbidden key or an unpaired surrogate anywhere in the JSON
  // body: never a 2xx.
  if (/%ED%[AB][0-9A-F]%/.test(url)) {
    expect(res.status, `a lone surrogate in the URL: ${what}`).toBe(400);
    return res;
  }
  if (r.body !== undefined && hostileFields(r.body).length > 0)
    expect(res.status >= 200 && res.status < 300, `hostile body accepted: ${what}`).toBe(false);
  if (documentedPath(docs[r.op.api] as never, r.path) === r.op.path)
    expectDocumented(r.op.api, r.op.method, url, res);
  if (res.status >= 200 && res.status < 300 && r.op.method !== 'GET' && r.op.method !== 'DELETE')
    await readsBack(r, res, token!, what);
  return res;
}

/** A 2xx write: the resource reads back as the write answered it, and as sent where echoed verbatim. */
async function readsBack(r: FuzzRequest, res: HttpResponse, token: string, what: string): Promise<void> {
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return;
  const collection = r.op.path.endsWith('s') && !r.op.path.includes('{', r.op.path.lastIndexOf('/'));
  const readPath = r.op.method === 'POST' && collection ? `${r.path}/${encodeURIComponent(id)}` : r.path;
  const template = documentedPath(docs[r.op.api] as never, readPath);
  if (!template || !docs[r.op.api].paths[template].get) return;
  const read = await http('GET', readPath, { token });
  expect(read.status, `read back ${readPath} after ${what}`).toBe(200);
  // Every field the write answered reads back (a read may tell more: GetVersion adds the content),
  // but a webhook's signing secret, answered once at creation and never read back.
  const { secret: _shownOnce, ...answered } = res.body as Record<string, unknown>;
  const told = Object.fromEntries(
    Object.keys(answered).map((k) => [k, (read.body as Record<string, unknown>)[k]]),
  );
  expect(told, `read back ${readPath} after ${what}`).toEqual(answered);
  const sent = r.body as Record<string, unknown> | undefined;
  if (!sent || typeof sent !== 'object' || Array.isArray(sent)) return;
  for (const field of ['content', 'description', 'destination']) {
    if (typeof sent[field] === 'string')
      expect((read.body as Record<string, unknown>)[field], `${field} as sent: ${what}`).toBe(sent[field]);
  }
  const metadata = sent.metadata;
  if (metadata && typeof metadata === 'object' && r.op.method === 'POST' && collection) {
    const kept = Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== ''));
    expect((read.body as { metadata?: unknown }).metadata, `metadata as sent: ${what}`).toEqual(kept);
  }
}
