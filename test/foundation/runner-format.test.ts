// The local runner runs what deploys: a function's own code is bundled with template.yaml's
// BuildProperties, byte for byte what `sam build`'s esbuild flags make of it, and loaded as Lambda's
// runtime loads its handler: a `.js` as a CommonJS module, an `.mjs` (the ES module functions of
// ESM_BUILD) as an ES module. Packages are the runner's shared copies, and a bundle's default and
// named imports of them mean what they mean in the deployed bundle; a `.wasm` is embedded.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { BUILD_PROPERTIES, buildPropertiesFor, ESBUILD, samEsbuildArgs } from '#infra/deploy/build.ts';
import { Bundles } from '#infra/local/bundles.ts';
import { ROOT } from '#infra/local/template.ts';

const run = promisify(execFile);
// Entry points inside the repository (so packages resolve as the functions' do), in a folder of their
// own that is removed after the run.
const scratch = mkdtempSync(join(ROOT, '.format-test-'));
const entry = (name: string) => relative(ROOT, join(scratch, name));
/** The BuildProperties of the functions that run SQLite (ES modules, .wasm embedded). */
const ESM = buildPropertiesFor('functions/notes/search-notes.ts');
const esmEntry = (id: string, name: string) => ({
  id,
  entry: entry(name),
  metadata: { BuildProperties: { EntryPoints: [entry(name)], ...ESM } },
});
const bundles = new Bundles(
  [
    { id: 'Plain', entry: entry('plain.ts') },
    { id: 'Packages', entry: entry('packages.ts') },
    esmEntry('PlainEsm', 'plain-esm.ts'),
    esmEntry('Sqlite', 'sqlite.ts'),
  ],
  { buildDir: join(scratch, 'build') },
);
afterAll(async () => {
  await bundles.stop();
  rmSync(scratch, { recursive: true, force: true });
});

writeFileSync(
  join(scratch, 'plain.ts'),
  [
    'class Greeting { constructor(readonly word: string) {} }',
    "export const handler = async () => ({ commonJs: typeof require === 'function' && typeof module === 'object',",
    '  file: __filename, word: new Greeting(`hello`).word });',
  ].join('\n'),
);
writeFileSync(
  join(scratch, 'plain-esm.ts'),
  [
    'class Greeting { constructor(readonly word: string) {} }',
    // import.meta.url: the module's URL in an ES module (in a CommonJS bundle esbuild makes it undefined).
    'export const handler = async () => ({ url: import.meta.url, word: new Greeting(`hello`).word });',
  ].join('\n'),
);
writeFileSync(
  join(scratch, 'sqlite.ts'),
  [
    "import middy from '@middy/core';",
    "import sqlite3InitModule from '@sqlite.org/sqlite-wasm';",
    "import { sqliteWasm } from '#lib/notes/search/adapters/sqlite-wasm.ts';",
    'const init = sqlite3InitModule as unknown as (o: { wasmBinary: Uint8Array }) => ReturnType<typeof sqlite3InitModule>;',
    'export const handler = middy(async (event: { q: string }) => {',
    '  const sqlite3 = await init({ wasmBinary: sqliteWasm });',
    "  const db = new sqlite3.oo1.DB(':memory:');",
    "  db.exec('CREATE VIRTUAL TABLE notes USING fts5(body)');",
    "  db.exec({ sql: 'INSERT INTO notes VALUES (?), (?)', bind: ['a quick fox', 'a lazy dog'] });",
    "  const rows = db.selectValues('SELECT body FROM notes WHERE notes MATCH ?', [event.q]);",
    '  db.close();',
    '  return { rows };',
    '});',
  ].join('\n'),
);
writeFileSync(
  join(scratch, 'packages.ts'),
  [
    "import middy from '@middy/core';",
    "import * as v from 'valibot';",
    "import { GetItemCommand } from '@aws-sdk/client-dynamodb';",
    'export const handler = middy(async () => ({',
    "  valid: v.safeParse(v.string(), 'x').success,",
    "  command: new GetItemCommand({ TableName: 't', Key: {} }).constructor.name,",
    '}));',
  ].join('\n'),
);

it("bundles a function's code byte for byte as sam build does, and loads it as CommonJS", async () => {
  await bundles.start(false);
  const { handler } = await bundles.load('Plain');
  const answer = (await handler({}, {})) as { commonJs: boolean; file: string; word: string };
  expect(answer).toMatchObject({ commonJs: true, word: 'hello' });
  expect(answer.file).toMatch(/Plain-\d+\.js$/);

  const out = join(scratch, 'sam');
  await run(ESBUILD, samEsbuildArgs({ ...BUILD_PROPERTIES, EntryPoints: [entry('plain.ts')] }, out), {
    cwd: ROOT,
  });
  const withoutMapLine = (code: string) => code.replace(/\/\/# sourceMappingURL=.*\n?$/, '');
  const runner = readdirSync(bundles.outdir).find((f) => /^Plain-\d+\.js$/.test(f))!;
  expect(withoutMapLine(readFileSync(join(bundles.outdir, runner), 'utf8'))).toBe(
    withoutMapLine(readFileSync(join(out, 'plain.js'), 'utf8')),
  );
});

it("answers a bundle's package imports with the runner's one shared copy", async () => {
  const { handler } = await bundles.load('Packages');
  expect(await handler({}, {})).toEqual({ valid: true, command: 'GetItemCommand' });
  const code = readFileSync(
    join(bundles.outdir, readdirSync(bundles.outdir).find((f) => /^Packages-\d+\.js$/.test(f))!),
    'utf8',
  );
  // The packages are required by URL (shared), not bundled in.
  expect(code).toMatch(/require\("file:\/\/[^"]*@middy\/core/);
  expect(code.length).toBeLessThan(20_000);
});

it('bundles an ES module function (ESM_BUILD) byte for byte as sam build does, and loads it as an ES module', async () => {
  const { handler } = await bundles.load('PlainEsm');
  const answer = (await handler({}, {})) as { url: string; word: string };
  expect(answer.word).toBe('hello');
  expect(answer.url).toMatch(/^file:\/\/.*PlainEsm-\d+\.mjs\?/);

  const out = join(scratch, 'sam-esm');
  await run(ESBUILD, samEsbuildArgs({ ...ESM, EntryPoints: [entry('plain-esm.ts')] }, out), { cwd: ROOT });
  const withoutMapLine = (code: string) => code.replace(/\/\/# sourceMappingURL=.*\n?$/, '');
  const runner = readdirSync(bundles.outdir).find((f) => /^PlainEsm-\d+\.mjs$/.test(f))!;
  expect(withoutMapLine(readFileSync(join(bundles.outdir, runner), 'utf8'))).toBe(
    withoutMapLine(readFileSync(join(out, 'plain-esm.mjs'), 'utf8')),
  );
});

it('runs SQLite in an ES module function: packages imported (shared), sqlite3.wasm embedded', async () => {
  const { handler } = await bundles.load('Sqlite');
  expect(await handler({ q: 'fox' }, {})).toEqual({ rows: ['a quick fox'] });
  const code = readFileSync(
    join(bundles.outdir, readdirSync(bundles.outdir).find((f) => /^Sqlite-\d+\.mjs$/.test(f))!),
    'utf8',
  );
  // Packages are imported by URL (shared), not bundled in; the engine's bytes are (base64).
  expect(code).toMatch(/from\s*"file:\/\/[^"]*@sqlite\.org\/sqlite-wasm\/dist\/node\.mjs"/);
  expect(code).toMatch(/from\s*"file:\/\/[^"]*@middy\/core/);
  expect(code.length).toBeGreaterThan(800_000);
  expect(code.length).toBeLessThan(1_300_000);
  // Loaded again (after a crash or eviction), it is a fresh module that starts cold.
  bundles.discard('Sqlite');
  const again = await bundles.load('Sqlite');
  expect(again.handler).not.toBe(handler);
  expect(await again.handler({ q: 'dog' }, {})).toEqual({ rows: ['a lazy dog'] });
});
