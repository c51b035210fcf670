// docs/architecture.md, "Add an operation", followed in a scratch copy of the files it names: a new
// handler file, one row in functions/news/routes.ts and its operation in infra/openapi/news.ts (by
// hand), then the route blocks of `npm run deploy:sync` and `npm run openapi`, run in-process on the
// copy. The function's block, its 405 fallback path and its OpenAPI operation appear; the files the
// add touched are counted. The bundles, policies, log groups and alarms (which need a build) are not
// made here: test/deploy checks them on the real template. No build, no Java.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from '../../../functions/route-table.ts';
import { syncBuildProperties, syncFallbacks, syncRoutes } from '../../../infra/deploy/sync.ts';
import { parseTemplate, ROOT } from '../../../infra/local/template.ts';

/** What the copy needs: the files the checklist edits, and what they import (lib/ and node_modules/ linked). */
const COPIED = [
  'template.yaml',
  'functions/route-table.ts',
  'functions/news',
  'infra/openapi',
  'openapi/news.json',
];
const LINKED = ['lib', 'node_modules'];

const HANDLER = 'functions/news/get-tag-count.ts';
const HANDLER_TEXT = `// GET /api/v1/tags/{id}/count: how many articles carry a tag.
import { tags } from '#lib/news/wiring.ts';
import { idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) =>
  ok({ articlesCount: (await tags().tagSummary(path.id)).articlesCount }),
);
`;
const ROW = `    {
      id: 'NewsGetTagCountFunction',
      method: 'GET',
      path: '/api/v1/tags/{id}/count',
      handler: '${HANDLER}',
      operationId: 'GetTagCount',
      summary: 'How many articles carry a tag',
      tags: ['Tags'],
    },
`;
const OPERATION = `      '/api/v1/tags/{id}/count': get(
        'articlesCount: the number of articles carrying the tag.',
        v.strictObject({ articlesCount: int }),
        { path: idPath, notFound: true },
      ),
`;

/** `text` with `insert` at the start of the first line from `after` on that equals `line`. */
const insertAt = (text: string, after: string, line: string, insert: string) => {
  const from = text.indexOf(after);
  const at = text.indexOf(line, from);
  expect(from, after).toBeGreaterThanOrEqual(0);
  expect(at, line).toBeGreaterThan(from);
  return text.slice(0, at) + insert + text.slice(at);
};

/** The files of `dir` (not through its links), from `dir`. */
const filesOf = (dir: string, under = dir): string[] =>
  readdirSync(under, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesOf(dir, join(under, e.name))
      : e.isFile()
        ? [relative(dir, join(under, e.name))]
        : [],
  );

let dir: string;
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(dir, file), text);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'add-an-operation-'));
  for (const path of COPIED) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
  for (const path of LINKED) symlinkSync(join(ROOT, path), join(dir, path));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Add an operation, in a scratch copy', () => {
  it('a handler, a row and its OpenAPI operation make its template block and its OpenAPI operation', async () => {
    // 1. The handler.
    write(HANDLER, HANDLER_TEXT);
    // 3. One row, where its route belongs (after the tag summary).
    const routes = 'functions/news/routes.ts';
    write(routes, insertAt(read(routes), "id: 'NewsGetTagSummaryFunction'", '    {\n', ROW));
    // 4. Its OpenAPI operation (the builder takes operationId, summary and tags from the row), then npm run openapi.
    const builder = 'infra/openapi/news.ts';
    write(
      builder,
      insertAt(read(builder), "'/api/v1/tags/{id}/summary'", "      '/api/v1/status/web-api'", OPERATION),
    );
    const { buildNewsDocument } = (await import(join(dir, builder))) as { buildNewsDocument: () => unknown };
    write('openapi/news.json', `${JSON.stringify(buildNewsDocument(), null, 2)}\n`);
    // 5. npm run deploy:sync's steps that need no build: the route blocks, the 405 fallback, the build properties.
    const { NEWS_ROUTES } = (await import(join(dir, routes))) as { NEWS_ROUTES: RouteTable };
    const before = read('template.yaml');
    write('template.yaml', syncBuildProperties(syncFallbacks(syncRoutes(before, [NEWS_ROUTES], dir))));

    const template = parseTemplate(read('template.yaml'));
    const fn = template.Resources.NewsGetTagCountFunction;
    expect(fn.Metadata?.BuildProperties.EntryPoints).toEqual([HANDLER]);
    expect(fn.Properties).toMatchObject({
      Description: 'GET /api/v1/tags/{id}/count - GetTagCount: How many articles carry a tag',
      Handler: 'get-tag-count.handler',
      Events: {
        Api: {
          Type: 'Api',
          Properties: { RestApiId: { Ref: 'NewsApi' }, Path: '/api/v1/tags/{id}/count', Method: 'get' },
        },
      },
    });
    // Its path on the News API's 405 fallback, and in the fallback function's ALLOWED_METHODS.
    expect(
      template.Resources.NewsApi.Properties?.DefinitionBody.paths['/api/v1/tags/{id}/count'],
    ).toHaveProperty('x-amazon-apigateway-any-method');
    expect(read('template.yaml')).toContain('"/api/v1/tags/{id}/count":"GET"');
    // Every other line of the template stays (only the ALLOWED_METHODS line is rewritten).
    const after = new Set(read('template.yaml').split('\n'));
    expect(before.split('\n').filter((l) => !after.has(l))).toEqual([
      expect.stringMatching(/^ {10}ALLOWED_METHODS: '\{.*"\/api\/v1\/tags\/\{id\}\/summary":"GET"/),
    ]);

    const doc = JSON.parse(read('openapi/news.json')) as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths['/api/v1/tags/{id}/count'].get).toMatchObject({
      operationId: 'GetTagCount',
      summary: 'How many articles carry a tag',
      tags: ['Tags'],
    });
    // Nothing else of the document changed.
    const { '/api/v1/tags/{id}/count': _, ...others } = doc.paths;
    expect(others).toEqual(JSON.parse(readFileSync(join(ROOT, 'openapi/news.json'), 'utf8')).paths);

    // The files the add touched: three by hand, two generated.
    const touched = filesOf(dir).filter((f) => {
      try {
        return readFileSync(join(ROOT, f), 'utf8') !== read(f);
      } catch {
        return true;
      }
    });
    expect(touched.sort()).toEqual([
      HANDLER,
      'functions/news/routes.ts',
      'infra/openapi/news.ts',
      'openapi/news.json',
      'template.yaml',
    ]);
  });
});
