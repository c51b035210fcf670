// Builds every function exactly as `sam build` does: SAM's esbuild workflow (aws-lambda-builders,
// nodejs_npm_esbuild, esbuild.py) runs `esbuild <EntryPoints> --bundle --platform=node --outdir=<artifacts>`,
// adds --target=es2020 / --format=cjs / --minify when BuildProperties leave them out, then one flag per
// BuildProperties key it knows (snake_case → kebab-case): booleans `minify`, `sourcemap` (--key when
// true); single values `target`, `format`, `main_fields`, `sources_content` (--key=value); lists
// `external`, `loader`, `out_extension`, `banner` (--key:item). It ignores any other key, so a key
// outside these lists is an error here: it would not reach esbuild. One esbuild run per function,
// from the CodeUri folder (the repository root).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { listFunctions, loadTemplate, ROOT, type Template } from '../local/template.ts';
import { mappedLines } from './source-map.ts';

const run = promisify(execFile);
export const ESBUILD = join(ROOT, 'node_modules', '.bin', 'esbuild');

/**
 * Every function's BuildProperties but its EntryPoints (ESM_BUILD's, below, with keys of their own),
 * written by `npm run deploy:sync` (docs/deploy.md, "How functions are built"): CommonJS (a `.js`
 * that the runtime loads without Node's ES module facades of built-in modules: an ES module
 * importing node:http loads undici, ~25 % of a small handler's cold start) made from the packages' ES builds (`module` before `main`, so esbuild
 * tree-shakes the AWS SDK). The fastest cold start measured (`npm run bench -- --floor-builds`).
 */
export const BUILD_PROPERTIES = {
  Format: 'cjs',
  MainFields: 'module,main',
  Target: 'es2023',
  Minify: true,
  Sourcemap: true,
  SourcesContent: 'false',
} as const;

/**
 * The functions built as ES modules (`.mjs`), by entry point: their BuildProperties are
 * BUILD_PROPERTIES with these keys over them (`npm run deploy:sync` writes them). They search or index
 * the notes with SQLite's WebAssembly build (@sqlite.org/sqlite-wasm), whose Node entry is an ES module
 * that calls `createRequire(import.meta.url)` (in a CommonJS bundle esbuild empties import.meta, and
 * that call throws) and whose engine, sqlite3.wasm, is embedded in the bundle (Loader `.wasm=binary`:
 * a bundle would otherwise look for the file beside itself, and no bundle ships it). Their Handler
 * stays `<file>.handler`: Lambda's Node runtime finds `<file>.mjs`. No Banner defining `require`: no
 * CommonJS code in these bundles calls it (test/deploy/sam-build.test.ts fails when one does). Every
 * other function stays CommonJS, the faster cold start (BUILD_PROPERTIES).
 */
/**
 * The Banner an ES module bundle needs when bundled CommonJS code calls `require` (esbuild's stub
 * throws "Dynamic require of ... is not supported" in an ES module): a `require` made for the bundle.
 */
export const REQUIRE_BANNER =
  "js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

const SQLITE_BUILD = {
  Format: 'esm',
  OutExtension: ['.js=.mjs'],
  Loader: ['.wasm=binary'],
} as const;
export const ESM_BUILD: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'functions/notes/search-notes.ts': SQLITE_BUILD,
  'functions/notes/index-notes.ts': SQLITE_BUILD,
};

/** A function's BuildProperties but its EntryPoints: BUILD_PROPERTIES, with its ESM_BUILD keys over them. */
export function buildPropertiesFor(entry: string): Record<string, unknown> {
  return { ...BUILD_PROPERTIES, ...ESM_BUILD[entry] };
}

/** The keys aws-lambda-builders passes to esbuild, by kind (esbuild.py); EntryPoints aside. */
export const SAM_ESBUILD_KEYS = {
  boolean: ['minify', 'sourcemap'],
  single: ['target', 'format', 'main_fields', 'sources_content'],
  multi: ['external', 'loader', 'out_extension', 'banner'],
} as const;
const KNOWN = new Set<string>(['entry_points', 'use_npm_ci', ...Object.values(SAM_ESBUILD_KEYS).flat()]);

const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const kebab = (key: string) => key.replace(/_/g, '-');

/** The esbuild arguments SAM passes for a function's Metadata.BuildProperties. */
export function samEsbuildArgs(buildProperties: Record<string, unknown>, outdir: string): string[] {
  const config = Object.fromEntries(Object.entries(buildProperties).map(([k, v]) => [snake(k), v]));
  const unknown = Object.keys(config).filter((k) => !KNOWN.has(k));
  if (unknown.length)
    throw new Error(
      `BuildProperties ${unknown.join(', ')}: aws-lambda-builders does not pass these to esbuild`,
    );
  const args = [...((config.entry_points as string[] | undefined) ?? [])];
  args.push('--bundle', '--platform=node', `--outdir=${outdir}`);
  if (!('target' in config)) args.push('--target=es2020');
  if (!('format' in config)) args.push('--format=cjs');
  if (!('minify' in config)) args.push('--minify');
  for (const key of SAM_ESBUILD_KEYS.boolean) if (config[key] === true) args.push(`--${kebab(key)}`);
  for (const key of SAM_ESBUILD_KEYS.single) if (key in config) args.push(`--${kebab(key)}=${config[key]}`);
  for (const key of SAM_ESBUILD_KEYS.multi) {
    if (!(key in config)) continue;
    if (!Array.isArray(config[key])) throw new Error(`BuildProperties ${key} must be a list`);
    args.push(...(config[key] as unknown[]).map((item) => `--${kebab(key)}:${item}`));
  }
  return args;
}

/** The extension of a bundle built with these BuildProperties (OutExtension `.js=.mjs` → `.mjs`). */
export function bundleExtension(buildProperties: Record<string, unknown>): string {
  const mapped = ((buildProperties.OutExtension as string[] | undefined) ?? [])
    .map((item) => /^\.js=(.+)$/.exec(item)?.[1])
    .find(Boolean);
  return mapped ?? '.js';
}

export interface BuiltFunction {
  id: string;
  entry: string;
  handler: string; // exported name (Handler: <file>.<name>)
  file: string; // the bundle Lambda loads: <outdir>/<file>.mjs (or .js)
  args: string[];
  code: string;
  /**
   * Source files that put code in the bundle (from its source map), with their text and the lines of
   * it that are in the bundle (0-based; esbuild drops code no entry point reaches).
   */
  sources: Array<{ path: string; content: string; lines?: Set<number> }>;
}

const load = (fn: ReturnType<typeof listFunctions>[number], file: string, args: string[]): BuiltFunction => {
  // The maps carry no sourcesContent (SourcesContent: 'false'), so each source is read from disk. A
  // package's own source map may name files it does not ship: those read as empty.
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const text = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  const lines = mappedLines(map.mappings);
  const sources = map.sources.map((path, i) => ({
    path,
    content: text(resolve(dirname(file), path)),
    lines: lines.get(i) ?? new Set<number>(),
  }));
  const handler = String(fn.properties.Handler).split('.').pop()!;
  return { id: fn.id, entry: fn.entry, handler, file, args, code: readFileSync(file, 'utf8'), sources };
};

/**
 * Builds every function of the template into `outRoot`. `exact`: one esbuild run per function,
 * exactly as SAM runs it (outRoot/<FunctionId>/<file>.js, or .mjs). `shared` (fast; tests,
 * deploy:sync): one run per set of flags, with every entry point that has them (plus --outbase=.,
 * which only places the files); without code splitting each bundle is the same as its own run's.
 */
export async function buildFunctions(
  outRoot: string,
  mode: 'exact' | 'shared',
  template: Template = loadTemplate(),
): Promise<BuiltFunction[]> {
  rmSync(outRoot, { recursive: true, force: true });
  mkdirSync(outRoot, { recursive: true });
  // Lambda's /var/task has no package.json, so a .js bundle is CommonJS there (an .mjs one is an ES
  // module anywhere); under this repository ("type": "module") a .js would load as ESM. This file
  // restores Lambda's reading.
  writeFileSync(join(outRoot, 'package.json'), '{ "type": "commonjs" }\n');
  const functions = listFunctions(template);
  if (mode === 'shared') {
    // One run per set of flags (the CommonJS functions, the ES module ones).
    const groups = new Map<string, typeof functions>();
    for (const fn of functions) {
      const flags = samEsbuildArgs(fn.metadata.BuildProperties ?? {}, outRoot).filter((a) =>
        a.startsWith('--'),
      );
      const key = JSON.stringify(flags); // a Banner item may hold spaces
      groups.set(key, [...(groups.get(key) ?? []), fn]);
    }
    const built = await Promise.all(
      [...groups].map(async ([key, group]) => {
        const args = [...group.map((fn) => fn.entry), ...(JSON.parse(key) as string[]), '--outbase=.'];
        await run(ESBUILD, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
        return group.map((fn) => {
          const ext = bundleExtension(fn.metadata.BuildProperties ?? {});
          return load(fn, join(outRoot, fn.entry.replace(/\.[cm]?[jt]s$/, ext)), args);
        });
      }),
    );
    return built.flat().sort((a, b) => a.id.localeCompare(b.id));
  }
  const built: BuiltFunction[] = [];
  const queue = [...functions];
  const worker = async () => {
    for (let fn = queue.shift(); fn; fn = queue.shift()) {
      const outdir = join(outRoot, fn.id);
      mkdirSync(outdir, { recursive: true });
      const args = samEsbuildArgs(fn.metadata.BuildProperties ?? {}, outdir);
      await run(ESBUILD, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
      const ext = bundleExtension(fn.metadata.BuildProperties ?? {});
      built.push(load(fn, join(outdir, `${String(fn.properties.Handler).split('.')[0]}${ext}`), args));
    }
  };
  await Promise.all([worker(), worker()]);
  return built.sort((a, b) => a.id.localeCompare(b.id));
}
