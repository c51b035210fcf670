// What is measured is what deploys. `sam build` turns each function's BuildProperties into
// esbuild flags (aws-lambda-builders, workflows/nodejs_npm_esbuild/esbuild.py): its defaults, then the
// boolean keys (`--minify`, `--sourcemap` when true), the single-value keys (`--target=…`, `--format=…`,
// `--main-fields=…`, `--sources-content=…`) and the list keys (`--external:…`, `--loader:…`,
// `--out-extension:…`, `--banner:…`), in that order; any other key never reaches esbuild. That mapping
// is written out again here, independently of infra/deploy/build.ts, and the cold-start bench's build
// must produce byte for byte what esbuild makes from it. The builder installs production dependencies
// only, in a scratch copy, before it looks for esbuild: that step is reproduced here too.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '#infra/bench/coldstart.ts';
import {
  BUILD_PROPERTIES,
  buildFunctions,
  buildPropertiesFor,
  ESBUILD,
  ESM_BUILD,
  samEsbuildArgs,
} from '#infra/deploy/build.ts';
import { listFunctions, ROOT } from '#infra/local/template.ts';

const run = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'tri-api-sam-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** esbuild.py's EsbuildCommandBuilder, transcribed: entry points, defaults, then the three kinds. */
function lambdaBuildersArgs(properties: Record<string, unknown>, outdir: string): string[] {
  const config = Object.fromEntries(
    Object.entries(properties).map(([k, v]) => [k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), v]),
  );
  const args = [...(config.entry_points as string[])];
  args.push('--bundle', '--platform=node', `--outdir=${outdir}`);
  if (!('target' in config)) args.push('--target=es2020');
  if (!('format' in config)) args.push('--format=cjs');
  if (!('minify' in config)) args.push('--minify');
  for (const p of ['minify', 'sourcemap']) if (config[p] === true) args.push(`--${p.replace(/_/g, '-')}`);
  for (const p of ['target', 'format', 'main_fields', 'sources_content'])
    if (p in config) args.push(`--${p.replace(/_/g, '-')}=${config[p]}`);
  for (const p of ['external', 'loader', 'out_extension', 'banner'])
    if (p in config) for (const item of config[p] as string[]) args.push(`--${p.replace(/_/g, '-')}:${item}`);
  return args;
}

const functions = listFunctions();

// sam build of 105 functions takes minutes on a busy 2-core machine: the bound is for a hang only.
describe('sam build makes the bundles the bench measures', { timeout: 480_000 }, () => {
  it('every function is built as CommonJS (.js) from the packages’ ES builds, but the two that run SQLite: ES modules (.mjs)', () => {
    for (const fn of functions) {
      const { EntryPoints, ...bp } = fn.metadata.BuildProperties;
      expect(bp, fn.id).toEqual(buildPropertiesFor(fn.entry));
      expect(EntryPoints, fn.id).toHaveLength(1);
    }
    expect(BUILD_PROPERTIES).toMatchObject({ Format: 'cjs', MainFields: 'module,main' });
    expect(BUILD_PROPERTIES).not.toHaveProperty('OutExtension');
    const esm = functions.filter((fn) => ESM_BUILD[fn.entry]);
    expect(esm.map((fn) => fn.id).sort()).toEqual(['NotesIndexNotesFunction', 'NotesSearchNotesFunction']);
    for (const fn of esm) {
      expect(fn.metadata.BuildProperties, fn.id).toMatchObject({
        ...BUILD_PROPERTIES,
        Format: 'esm',
        OutExtension: ['.js=.mjs'],
        Loader: ['.wasm=binary'],
      });
      // Lambda's runtime finds <file>.mjs for the handler <file>.handler.
      expect(fn.properties.Handler, fn.id).toBe(`${basename(fn.entry, '.ts')}.handler`);
    }
  });

  it("every function's BuildProperties become exactly the flags aws-lambda-builders passes", () => {
    for (const fn of functions)
      expect(samEsbuildArgs(fn.metadata.BuildProperties, 'out'), fn.id).toEqual(
        lambdaBuildersArgs(fn.metadata.BuildProperties, 'out'),
      );
  });

  it('refuses a BuildProperties key the builder would silently drop (Splitting is not passed to esbuild)', () => {
    expect(() => samEsbuildArgs({ EntryPoints: ['a.ts'], Splitting: true }, 'out')).toThrow(
      /Splitting|splitting/,
    );
  });

  it.each([
    'NotesGetMeFunction',
    'NotesUploadNoteImageFunction',
    'BankStartVerificationFunction',
    'NotesSearchNotesFunction',
  ])("the bench's bundle of %s is byte for byte esbuild's output for the builder's flags", async (id) => {
    const fn = functions.find((f) => f.id === id)!;
    const samDir = join(out, `${id}-sam`);
    await run(
      join(ROOT, 'node_modules', '.bin', 'esbuild'),
      lambdaBuildersArgs(fn.metadata.BuildProperties, samDir),
      {
        cwd: ROOT,
      },
    );
    const { EntryPoints, ...bp } = fn.metadata.BuildProperties;
    const bench = await build(fn.entry, join(out, `${id}-bench`), bp);
    const samFile = join(samDir, basename(bench.file));
    expect(existsSync(samFile), samFile).toBe(true);
    expect(readFileSync(bench.file).equals(readFileSync(samFile))).toBe(true);
  });

  it('an ES module bundle with the search functions’ BuildProperties runs SQLite from its embedded sqlite3.wasm, full-text search included', async () => {
    // A fixture entry inside the repository (packages resolve as the functions' do), built with
    // NotesSearchNotesFunction's BuildProperties exactly as sam build runs esbuild, then run in a fresh
    // Node as Lambda runs an .mjs handler: from a folder of its own, no sqlite3.wasm beside it, no
    // node_modules above it, and Uint8Array.fromBase64 removed (the binary loader's Buffer fallback).
    const scratch = mkdtempSync(join(ROOT, '.sam-build-test-'));
    try {
      writeFileSync(
        join(scratch, 'search.ts'),
        [
          "import sqlite3InitModule from '@sqlite.org/sqlite-wasm';",
          "import { sqliteWasm } from '#lib/notes/search/adapters/sqlite-wasm.ts';",
          'const init = sqlite3InitModule as unknown as (o: { wasmBinary: Uint8Array }) => ReturnType<typeof sqlite3InitModule>;',
          'export const handler = async (event: { q: string }) => {',
          '  const sqlite3 = await init({ wasmBinary: sqliteWasm });',
          "  const db = new sqlite3.oo1.DB(':memory:');",
          "  db.exec('CREATE VIRTUAL TABLE notes USING fts5(title, body)');",
          "  db.exec({ sql: 'INSERT INTO notes VALUES (?, ?), (?, ?)', bind: ['Fox', 'a quick brown fox', 'Dog', 'a lazy dog'] });",
          "  const rows = db.selectValues('SELECT title FROM notes WHERE notes MATCH ? ORDER BY rank', [event.q]);",
          '  db.close();',
          '  return { rows, version: sqlite3.version.libVersion };',
          '};',
        ].join('\n'),
      );
      const fn = functions.find((f) => f.id === 'NotesSearchNotesFunction')!;
      const { EntryPoints, ...bp } = fn.metadata.BuildProperties;
      const lambda = mkdtempSync(join(tmpdir(), 'tri-api-esm-task-'));
      try {
        await run(
          ESBUILD,
          samEsbuildArgs({ ...bp, EntryPoints: [relative(ROOT, join(scratch, 'search.ts'))] }, lambda),
          { cwd: ROOT },
        );
        const file = join(lambda, 'search.mjs');
        expect(existsSync(file), file).toBe(true);
        expect(existsSync(join(lambda, 'sqlite3.wasm'))).toBe(false);
        const child = [
          'delete Uint8Array.fromBase64;',
          `const { handler } = await import(${JSON.stringify(`file://${file}`)});`,
          "process.stdout.write(JSON.stringify(await handler({ q: 'quick OR lazy' })));",
        ].join('\n');
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', child], {
          cwd: lambda,
          env: { PATH: process.env.PATH ?? '' },
        });
        const answer = JSON.parse(stdout) as { rows: string[]; version: string };
        expect(answer.rows.sort()).toEqual(['Dog', 'Fox']);
        const pinned = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies[
          '@sqlite.org/sqlite-wasm'
        ];
        expect(answer.version).toBe(pinned.split('-')[0]);
      } finally {
        rmSync(lambda, { recursive: true, force: true });
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('no bundle contains esbuild itself (a dependency of the build, not of the code)', async () => {
    const built = await buildFunctions(join(out, 'all'), 'shared');
    for (const fn of built)
      expect(
        fn.sources.filter((s) => /node_modules\/(esbuild|@esbuild)\//.test(s.path)),
        fn.id,
      ).toEqual([]);
    // An ES module bundle has no `require`: esbuild's stub for a bundled CommonJS `require` would
    // throw when reached (a Banner defining require, docs/deploy.md, is then needed).
    for (const fn of built.filter((f) => f.file.endsWith('.mjs')))
      expect(fn.code, fn.id).not.toContain('Dynamic require of');
    expect(built.filter((f) => f.file.endsWith('.mjs')).map((f) => f.id)).toHaveLength(2);
  });
});

describe("the builder's install step", () => {
  // aws-lambda-builders copies the source to a scratch folder and runs npm install without dev
  // dependencies, then searches that folder's node_modules/.bin (and PATH) for esbuild. A machine set
  // up as the README says has no global esbuild, so the project must bring it as a dependency.
  it('npm install --omit=dev in a scratch copy provides the esbuild binary, the version the bench uses', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'tri-api-sam-install-'));
    try {
      for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(scratch, f));
      await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: scratch,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, npm_config_loglevel: 'error' },
      });
      const bin = join(scratch, 'node_modules', '.bin', 'esbuild');
      expect(existsSync(bin), 'node_modules/.bin/esbuild after npm install --omit=dev').toBe(true);
      const { stdout } = await run(bin, ['--version']);
      const pinned = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies.esbuild;
      expect(stdout.trim()).toBe(pinned);
      expect(existsSync(join(scratch, 'node_modules', 'vitest')), 'dev dependencies are left out').toBe(
        false,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
