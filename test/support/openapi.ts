// Validates HTTP responses against the API's committed OpenAPI 3.1 document (openapi/<api>.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import type { HttpResponse } from './http.ts';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
};

const cache = new Map<string, { doc: Doc; ajv: Ajv2020 }>();
const load = (api: string) => {
  let entry = cache.get(api);
  if (!entry) {
    const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', `${api}.json`), 'utf8')) as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(doc, `${api}.json`);
    entry = { doc, ajv };
    cache.set(api, entry);
  }
  return entry;
};

/** The documented path template a concrete path matches (static segments win). */
export function documentedPath(doc: Doc, path: string): string | undefined {
  const candidates = Object.keys(doc.paths).filter((p) =>
    new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  const score = (p: string) =>
    p.split('/').reduce((s, seg, i) => s + (seg.startsWith('{') ? 0 : 2 ** (20 - i)), 0);
  return candidates.sort((a, b) => score(b) - score(a))[0];
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Asserts that `res` (for `method` on the concrete `path`) is documented and matches its schema. */
export function expectDocumented(
  api: 'notes' | 'news' | 'bank',
  method: string,
  path: string,
  res: HttpResponse,
): void {
  const { doc, ajv } = load(api);
  const template = documentedPath(doc, path.split('?')[0]);
  expect(template, `${method} ${path} is not in openapi/${api}.json`).toBeDefined();
  const op = doc.paths[template!][method.toLowerCase()];
  expect(op, `${method} ${template} is not in openapi/${api}.json`).toBeDefined();
  const status = String(res.status);
  const response = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  expect(response, `${method} ${template} does not document status ${status}`).toBeDefined();
  const content = response.content?.['application/json'];
  const otherTypes = Object.keys(response.content ?? {}).filter((t) => t !== 'application/json');
  if (!content && otherTypes.length) {
    // A documented non-JSON body (NDJSON): the response says it is of that type.
    const type = res.headers.get('content-type')?.split(';')[0];
    expect(otherTypes, `${method} ${template} ${status} content type`).toContain(type);
    return;
  }
  if (!content) {
    expect(res.text, `${method} ${template} ${status} should have no body`).toBe('');
    return;
  }
  const range = `${status[0]}XX`;
  const key = op.responses[status] ? status : op.responses[range] ? range : 'default';
  const ref =
    `${api}.json#/paths/${pointer(template!)}/${method.toLowerCase()}/responses/${pointer(key)}` +
    '/content/application~1json/schema';
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  const valid = validate(res.body);
  expect(
    validate.errors ?? [],
    `${method} ${path} ${status}: ${JSON.stringify(res.body).slice(0, 300)}`,
  ).toEqual([]);
  expect(valid).toBe(true);
}
