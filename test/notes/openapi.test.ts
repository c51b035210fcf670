// openapi/notes.json is what infra/openapi/notes.ts builds from the valibot schemas, and the runner serves it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRoutes, ROOT } from '../../infra/local/template.ts';
import { buildNotesDocument } from '../../infra/openapi/notes.ts';
import { http } from '../support/http.ts';

const committed = () => JSON.parse(readFileSync(join(ROOT, 'openapi', 'notes.json'), 'utf8'));

describe('openapi/notes.json', () => {
  it('equals the builder output (run npm run openapi after changing a schema)', () => {
    expect(committed()).toEqual(JSON.parse(JSON.stringify(buildNotesDocument())));
  });

  it('documents every Notes route of template.yaml, and nothing else', () => {
    const routes = listRoutes()
      .filter((r) => r.apiId === 'NotesApi' && r.method !== 'ANY')
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const doc = committed();
    const documented = Object.entries(doc.paths as Record<string, object>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(routes);
  });

  it('is served by the local runner', async () => {
    if (process.env.TEST_BASE_URL !== process.env.LOCAL_RUNNER_URL) return;
    const res = await http('GET', '/openapi/notes.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });
});
