// The route tables (functions/<api>/routes.ts) are the one declaration of each HTTP operation: they
// equal the template's routes and the generated OpenAPI documents' operations, both ways;
// template.yaml holds the blocks `npm run deploy:sync` writes from them (syncRoutes), and a stale
// block, a row without its handler file or a routed function also written by hand is found. No build, no Python, no Java.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteRow, RouteTable } from '../../../functions/route-table.ts';
import {
  descriptionOf,
  functionsOf,
  ROUTE_TABLES,
  routesEnd,
  routesStart,
  rowProblems,
} from '../../../infra/deploy/routes.ts';
import { syncRoutes } from '../../../infra/deploy/sync.ts';
import { document } from '../../../infra/openapi/build.ts';
import {
  listFunctions,
  listRoutes,
  parseTemplate,
  ROOT,
  TEMPLATE_PATH,
} from '../../../infra/local/template.ts';

const text = readFileSync(TEMPLATE_PATH, 'utf8');
const template = parseTemplate(text);
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);
const rowsOf = (table: RouteTable) => table.rows.map((r) => ({ ...r, api: r.api ?? table.api }));
/** A table with its first row changed. */
const withFirstRow = (table: RouteTable, change: Partial<RouteRow>): RouteTable => ({
  ...table,
  rows: [{ ...table.rows[0], ...change }, ...table.rows.slice(1)],
});
const notes = ROUTE_TABLES.find((t) => t.name === 'Notes')!;

describe('the route tables', () => {
  it('hold every HTTP operation of the three APIs, each API in its own table', () => {
    expect(ROUTE_TABLES.map((t) => t.api)).toEqual(['NotesApi', 'NewsApi', 'BankApi']);
    for (const table of ROUTE_TABLES) expect(table.rows.length, table.file).toBeGreaterThan(0);
  });

  it("equal the template's routes, both ways (the 405 fallbacks aside)", () => {
    const fallbacks = new Set(
      Object.values(template.Resources).flatMap((r) => r.Metadata?.MethodNotAllowed ?? []),
    );
    const routed = listRoutes(template)
      .filter((r) => !fallbacks.has(r.functionId))
      .map((r) => `${r.functionId} ${r.gatewayApiId} ${r.method} ${r.path} ${r.entry}`);
    const declared = ROUTE_TABLES.flatMap(rowsOf).map(
      (r) => `${r.id} ${r.api} ${r.method} ${r.path} ${r.handler}`,
    );
    expect(declared.sort()).toEqual(routed.sort());
  });

  // The builders (infra/openapi) write no operationId, summary or tags: document() takes them from
  // the rows. This checks the committed document is the one built from the rows as they are.
  it.each(ROUTE_TABLES.map((t) => [t.name, t] as const))(
    "%s: equal its generated OpenAPI document's operations (operationId, summary, tags), both ways",
    (_, table) => {
      const doc = JSON.parse(readFileSync(join(ROOT, table.openapi), 'utf8')) as {
        paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[] }>>;
      };
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([m]) => METHODS.has(m))
          .map(([m, op]) => JSON.stringify([m.toUpperCase(), path, op.operationId, op.summary, op.tags])),
      );
      const declared = table.rows.map((r) =>
        JSON.stringify([r.method, r.path, r.operationId, r.summary, r.tags]),
      );
      expect(declared.sort()).toEqual(documented.sort());
    },
  );

  it("a row without its OpenAPI operation, or an operation without its row, fails the document's build", () => {
    const input = { title: 'T', version: '1', description: 'd', tags: { Profile: 'p' }, security: true };
    const op = { description: 'd', responses: { 200: { description: 'OK' } } };
    expect(() => document({ ...input, routes: [notes.rows[0]], paths: {} })).toThrow(
      `T: rows without their operation in paths: ${notes.rows[0].operationId}`,
    );
    expect(() => document({ ...input, routes: [], paths: { '/v1/me': { get: op } } })).toThrow(
      'T: GET /v1/me has no route row',
    );
    const built = document({ ...input, routes: [notes.rows[0]], paths: { '/v1/me': { get: op } } });
    expect(built.paths['/v1/me'].get).toEqual({
      operationId: notes.rows[0].operationId,
      summary: notes.rows[0].summary,
      description: 'd',
      tags: notes.rows[0].tags,
      responses: op.responses,
    });
  });

  it('name existing handler files that export handler, one function each, with Descriptions Lambda takes', () => {
    for (const table of ROUTE_TABLES) expect(rowProblems(table), table.file).toEqual([]);
  });

  it('a row whose handler file is missing fails, and deploy:sync writes nothing from it', () => {
    const broken = withFirstRow(notes, { handler: 'functions/notes/no-such-handler.ts' });
    expect(rowProblems(broken)).toEqual([
      `${notes.rows[0].id}: its handler file functions/notes/no-such-handler.ts does not exist`,
    ]);
    expect(() => syncRoutes(text, [broken])).toThrow(/no-such-handler\.ts does not exist/);
  });

  it('a route in two rows fails', () => {
    const [first, second] = notes.rows;
    const twice = withFirstRow(notes, { method: second.method, path: second.path });
    expect(rowProblems(twice)).toContain(
      `${second.id}: NotesApi ${second.method} ${second.path} is routed twice`,
    );
    expect(first.id).not.toBe(second.id);
  });
});

describe('the generated blocks of template.yaml', () => {
  it('are what deploy:sync writes from the tables (none is stale)', () => {
    expect(syncRoutes(text) === text, "the routed functions' blocks are stale: run npm run deploy:sync").toBe(
      true,
    );
  });

  it("hold each table's functions, and only them, between its markers", () => {
    const lines = text.split('\n');
    for (const table of ROUTE_TABLES) {
      const from = lines.indexOf(routesStart(table));
      const to = lines.indexOf(routesEnd(table));
      expect(from, table.file).toBeGreaterThan(0);
      expect(to, table.file).toBeGreaterThan(from);
      const ids = lines.slice(from, to).flatMap((l) => /^ {2}(\w+):$/.exec(l)?.[1] ?? []);
      expect(ids).toEqual(functionsOf(table).map((f) => f.id));
    }
  });

  it('give each routed function its Description from its rows, and its extras', () => {
    const functions = new Map(listFunctions(template).map((f) => [f.id, f]));
    for (const table of ROUTE_TABLES)
      for (const { id, rows } of functionsOf(table)) {
        const fn = functions.get(id)!;
        expect(fn.properties.Description, id).toBe(descriptionOf(rows));
        expect(fn.entry, id).toBe(rows[0].handler);
        expect(fn.properties.Timeout, id).toBe(rows[0].timeout);
        expect(fn.properties.MemorySize, id).toBe(rows[0].memorySize);
      }
    expect(functions.get('NotesSearchNotesFunction')!.properties.Timeout).toBe(30);
    expect(functions.get('BankCreateTransferFunction')!.properties.Environment.Variables).toEqual({
      TRANSFER_STEP_UP_AMOUNT: { Ref: 'TransferStepUpAmount' },
    });
  });

  it('a stale block is found: a changed row changes its block, and only its block', () => {
    const changed = withFirstRow(notes, { summary: 'Another summary', timeout: 20 });
    const next = syncRoutes(text, [changed]);
    expect(next).not.toBe(text);
    const description = (summary: string) => `      Description: 'GET /v1/me - GetCurrentUser: ${summary}'\n`;
    expect(next).toContain(
      `${description('Another summary')}      Handler: get-me.handler\n      Timeout: 20\n`,
    );
    // Nothing else changed: the row's two changes undone, the text is the template's.
    const undone = next
      .replace(description('Another summary'), description(notes.rows[0].summary))
      .replace('      Timeout: 20\n', '');
    expect(undone === text).toBe(true);
    expect(syncRoutes(next) === text, 'the tables as they are write the block back').toBe(true);
  });

  it('a block edited by hand is written back from its row', () => {
    const edited = text.replace('            Path: /v1/me\n', '            Path: /v1/myself\n');
    expect(edited).not.toBe(text);
    expect(syncRoutes(edited) === text).toBe(true);
  });

  it('a routed function also written by hand outside the generated blocks fails', () => {
    const lines = text.split('\n');
    const at = lines.indexOf(routesEnd(notes)) + 1;
    const copy = [
      ...lines.slice(0, at),
      '  NotesGetMeFunction:',
      '    Type: AWS::Serverless::Function',
      ...lines.slice(at),
    ];
    expect(() => syncRoutes(copy.join('\n'))).toThrow(
      /NotesGetMeFunction: in functions\/notes\/routes\.ts and written by hand/,
    );
  });

  it('a new row gets a block, which the later steps of deploy:sync complete', () => {
    const row: RouteRow = {
      ...notes.rows[0],
      id: 'NotesGetMeAgainFunction',
      path: '/v1/me/again',
      summary: 'The caller, again',
    };
    const next = syncRoutes(text, [{ ...notes, rows: [...notes.rows, row] }]);
    const fn = parseTemplate(next).Resources.NotesGetMeAgainFunction;
    expect(fn.Metadata).toEqual({ BuildMethod: 'esbuild', BuildProperties: { EntryPoints: [row.handler] } });
    expect(fn.Properties).toEqual({
      Description: 'GET /v1/me/again - GetCurrentUser: The caller, again',
      Handler: 'get-me.handler',
      Events: {
        Api: {
          Type: 'Api',
          Properties: { RestApiId: { Ref: 'NotesApi' }, Path: '/v1/me/again', Method: 'get' },
        },
      },
    });
  });
});
