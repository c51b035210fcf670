// Each API's OpenAPI document is a valid OpenAPI 3.1 document and documents exactly the routes
// template.yaml gives that API (the 405 fallbacks aside).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { listRoutes, ROOT } from '../../infra/local/template.ts';

const APIS = { notes: 'NotesApi', news: 'NewsApi', bank: 'BankApi' } as const;

describe.each(Object.entries(APIS))('openapi/%s.json', (name, apiId) => {
  const file = join(ROOT, 'openapi', `${name}.json`);

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(file);
    expect(result.errors ?? []).toEqual([]);
    expect(validator.version).toBe('3.1');
  });

  it("documents exactly the API's routes", () => {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const methods = new Set(['get', 'put', 'post', 'patch', 'delete']);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => methods.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    const routes = listRoutes()
      .filter((r) => r.apiId === apiId && r.method !== 'ANY')
      .map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual(routes.sort());
  });
});
