// The Versions and Comments operations in openapi/notes.json: HackMD's operation ids and tags, a
// description each, our comment-writing extension marked as such, and every example valid against
// the schema it illustrates (what Swagger UI shows a reader is what the API answers).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';

const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', 'notes.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(doc, 'notes.json');
const schemaOf = (s: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(s).replaceAll('"#/components', '"notes.json#/components'));

const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([, op]) => op.tags?.includes('Versions') || op.tags?.includes('Comments'))
    .map(([method, op]) => ({ path, method, op })),
);

describe('Versions and Comments in openapi/notes.json', () => {
  it("has HackMD's nine operations and our three comment-writing ones, marked as the extension", () => {
    const byId = Object.fromEntries(ops.map((o) => [o.op.operationId, o]));
    for (const id of [
      'ListVersions',
      'CreateVersion',
      'UpdateVersion',
      'GetVersion',
      'CompareVersions',
      'ListNoteComments',
      'GetNoteComment',
      'ResolveNoteComment',
      'UnresolveNoteComment',
    ]) {
      expect(byId[id], id).toBeDefined();
      expect(byId[id].op['x-extension'], id).toBeUndefined();
    }
    for (const id of ['CreateNoteComment', 'UpdateNoteComment', 'DeleteNoteComment']) {
      expect(byId[id].op['x-extension'], id).toBe(true);
      expect(byId[id].op.description, id).toMatch(/^Extension of this API/);
    }
    for (const { op } of ops) {
      expect(op.summary, op.operationId).toBeTruthy();
      expect(op.description.length, op.operationId).toBeGreaterThan(20);
    }
  });

  it('every example matches its schema', () => {
    let checked = 0;
    for (const { path, method, op } of ops) {
      const media = [
        ['body', op.requestBody?.content?.['application/json']],
        ...Object.entries(op.responses).map(([status, r]: [string, any]) => [
          status,
          r.content?.['application/json'],
        ]),
      ] as [string, { schema: Record<string, unknown>; example?: unknown } | undefined][];
      for (const [where, m] of media) {
        if (m?.example === undefined) continue;
        const validate = ajv.compile(schemaOf(m.schema));
        expect(validate(m.example), `${method} ${path} ${where}: ${JSON.stringify(validate.errors)}`).toBe(
          true,
        );
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});
