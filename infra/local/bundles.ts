// Bundles functions with esbuild, lazily: a function is built on its first request, into a folder
// under the data dir (or the OS temp dir) that is removed on stop. Each bundle is what `sam build`
// makes of the function (its BuildProperties in template.yaml, infra/deploy/build.ts: CommonJS from
// the packages' ES builds, minified, a linked source map without sources; an ES module `.mjs` with
// its `.wasm` embedded for the functions of ESM_BUILD) and is loaded as the runtime loads its handler:
// a `.js` as a CommonJS module, compiled and run by Node's module system; an `.mjs` with Node's own
// import(). One thing differs, for memory: npm packages are not bundled in but shared
// (sharedPackages). In watch mode a change to a source file rebuilds the loaded functions that
// include it (one esbuild run per set of BuildProperties), and drops their loaded copies, so the next
// request runs the new code. Watching is chokidar's: it hears
// every way editors save (in place, a temporary file renamed over the original, delete and create
// again), where Node's recursive fs.watch lost a file for good after one atomic rename.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, Script } from 'node:vm';
import { type FSWatcher, watch } from 'chokidar';
import * as esbuild from 'esbuild';
import { buildPropertiesFor, bundleExtension, samEsbuildArgs } from '../deploy/build.ts';
import { ROOT } from './template.ts';

export interface FunctionEntry {
  id: string;
  entry: string;
  /** template.yaml's Metadata (listFunctions); without BuildProperties, buildPropertiesFor(entry). */
  metadata?: { BuildProperties?: Record<string, unknown> };
}
export type Handler = (event: unknown, context: unknown) => Promise<unknown>;
export interface Loaded {
  handler: Handler;
  buildMs: number;
  initMs: number;
}

/** Node's own import(), out of reach of module runners that rewrite `import()` in code they load. */
const importFunction = new Function('url', 'return import(url)') as (
  url: string,
) => Promise<Record<string, unknown>>;
let mainContextImport: typeof importFunction | undefined;
async function nativeImport(url: string): Promise<Record<string, unknown>> {
  try {
    return await importFunction(url);
  } catch (err) {
    // A vm context without an import callback (a vitest worker runs this file through its own): an
    // import() compiled by Node's vm with the main context's loader, still Node's loader and cache
    // (an ES module bundle must load natively, as in Lambda, not through the test runner).
    if ((err as NodeJS.ErrnoException).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') throw err;
    mainContextImport ??= new Script('(url) => import(url)', {
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    }).runInThisContext() as typeof importFunction;
    const load = mainContextImport;
    return quietly('USE_MAIN_CONTEXT_DEFAULT_LOADER', () => load(url));
  }
}

/**
 * Runs `make` without the process warnings that name `what`: Node's ExperimentalWarning for the vm
 * constant above, emitted when such an import() starts, printed once per test process (the loader
 * is the one Node uses anyway). Other warnings pass.
 */
function quietly<T>(what: string, make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes(what)) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

/** Source folders watched for changes (relative to the root); everything else is not a source. */
const WATCHED = ['functions', 'lib'];

export interface BundlesOptions {
  root?: string;
  buildDir?: string;
  log?: (line: string) => void;
  /** Most functions kept loaded ("warm"); the least recently used beyond it are dropped, as Lambda
   * reclaims idle environments, and start cold again on their next request. */
  maxWarm?: number;
}

/** Default for BundlesOptions.maxWarm (above the 37 functions of template.yaml). */
export const MAX_WARM_FUNCTIONS = Number(process.env.LOCAL_WARM_FUNCTIONS ?? 40);
interface Built {
  file: string;
  inputs: Set<string>;
}

export class Bundles {
  readonly outdir: string;
  private readonly root: string;
  private readonly entries: Map<string, FunctionEntry>;
  private readonly built = new Map<string, Built>();
  private readonly building = new Map<string, Promise<Built>>();
  private readonly loaded = new Map<string, Handler>();
  private watcher?: FSWatcher;
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private rebuilding = Promise.resolve();
  private serial = 0;
  generation = 0;

  constructor(
    functions: FunctionEntry[],
    private readonly opts: BundlesOptions = {},
  ) {
    this.root = opts.root ?? ROOT;
    this.entries = new Map(functions.map((f) => [f.id, f]));
    const parent = opts.buildDir ?? join(tmpdir(), 'tri-api-build');
    // <pid>-<random>: one folder per Bundles, so runners in one process never share (or delete) bundles.
    this.outdir = join(parent, `${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  /** Prepares the build folder; in watch mode also starts watching the sources. */
  async start(watchSources: boolean): Promise<void> {
    removeDeadBuilds(resolve(this.outdir, '..'));
    mkdirSync(this.outdir, { recursive: true });
    if (watchSources) await this.watch();
  }

  get count(): number {
    return this.entries.size;
  }
  get loadedCount(): number {
    return this.loaded.size;
  }
  has(id: string): boolean {
    return this.entries.has(id) && existsSync(join(this.root, this.entries.get(id)!.entry));
  }

  /**
   * A function built if needed and loaded in this process (inside `scope`), as an environment loads
   * it in its worker (function-worker.mjs; the runner's own path: bundle()). For the tests of the
   * bundles' format and reloads. A module that throws while loading: InitError.
   */
  async load(
    id: string,
    exportName = 'handler',
    beforeInit = async () => {},
    scope: <T>(fn: () => T) => T = (fn) => fn(),
  ): Promise<Loaded> {
    const warm = this.warm(id);
    if (warm) return { handler: warm, buildMs: 0, initMs: 0 };
    const t0 = performance.now();
    await this.rebuilding;
    const built = this.built.get(id) ?? (await this.buildOne(id));
    await beforeInit();
    const again = this.warm(id);
    if (again) return { handler: again, buildMs: performance.now() - t0, initMs: 0 };
    const t1 = performance.now();
    let mod: Record<string, unknown>;
    try {
      mod = built.file.endsWith('.mjs')
        ? await scope(() => loadEsModule(built.file))
        : scope(() => loadCommonJs(built.file));
    } catch (err) {
      throw new InitError(id, err);
    }
    const handler = mod[exportName] as Handler;
    if (typeof handler !== 'function') throw new Error(`${id} does not export ${exportName}`);
    this.loaded.set(id, handler);
    this.evictColdest();
    return { handler, buildMs: t1 - t0, initMs: performance.now() - t1 };
  }

  /**
   * A function's bundle, built if needed (what an environment of lambdas.ts loads in its worker):
   * its file (a new one after each rebuild) and how long the build took, 0 if it was built already.
   */
  async bundle(id: string): Promise<{ file: string; buildMs: number }> {
    const t0 = performance.now();
    await this.rebuilding;
    const ready = this.built.get(id);
    if (ready) return { file: ready.file, buildMs: 0 };
    const built = await this.buildOne(id);
    return { file: built.file, buildMs: performance.now() - t0 };
  }

  /** The current bundle of a function, if built: an environment that loaded another is stale. */
  currentFile(id: string): string | undefined {
    return this.built.get(id)?.file;
  }

  /** Bundles one more entry (not a function of the template: the bench's biller), as an ES module. */
  async bundleModule(entry: string, name: string): Promise<string> {
    const outfile = join(this.outdir, `${name}.mjs`);
    if (!existsSync(outfile))
      await esbuild.build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'silent',
        // CommonJS dependencies bundled into an ES module call require(): give them Node's.
        banner: {
          js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        },
      });
    return outfile;
  }

  /** Drops a function's loaded module (its environment): the next request initialises it again. */
  discard(id: string): void {
    this.loaded.delete(id);
  }

  /** A loaded handler, now the most recently used. */
  private warm(id: string): Handler | undefined {
    const handler = this.loaded.get(id);
    if (handler) {
      this.loaded.delete(id);
      this.loaded.set(id, handler);
    }
    return handler;
  }

  private evictColdest(): void {
    const max = this.opts.maxWarm ?? MAX_WARM_FUNCTIONS;
    for (const id of [...this.loaded.keys()].slice(0, Math.max(0, this.loaded.size - max))) {
      this.loaded.delete(id);
    }
  }

  /** Builds every function not built yet, in one esbuild run (npm start does this while it seeds). */
  async buildAll(): Promise<void> {
    const ids = [...this.entries.keys()].filter(
      (id) => this.has(id) && !this.built.has(id) && !this.building.has(id),
    );
    if (ids.length === 0) return;
    const job = this.build(ids);
    for (const id of ids) {
      const one = job.then((m) => m.get(id)!).finally(() => this.building.delete(id));
      one.catch(() => {}); // a failed run is retried per function on its first request
      this.building.set(id, one);
    }
    await job.catch((err) =>
      this.opts.log?.(`bundling failed; each function is retried on its first request\n${buildErrors(err)}`),
    );
  }

  private buildOne(id: string): Promise<Built> {
    let job = this.building.get(id);
    if (!job) {
      job = this.build([id])
        .then((m) => m.get(id)!)
        .finally(() => this.building.delete(id));
      this.building.set(id, job);
    }
    return job;
  }

  /** A function's BuildProperties, as `sam build` reads them (template.yaml's, else build.ts's). */
  private buildProperties(id: string): Record<string, unknown> {
    const fn = this.entries.get(id)!;
    const { EntryPoints: _, ...bp } = fn.metadata?.BuildProperties ?? buildPropertiesFor(fn.entry);
    return bp;
  }

  /**
   * The given functions built, one esbuild run per set of BuildProperties; replaces their bundles and
   * drops their loaded copies.
   */
  private async build(ids: string[]): Promise<Map<string, Built>> {
    const missing = ids.filter((id) => !this.has(id));
    if (missing.length) throw new Error(`${missing.join(', ')} has no source file`);
    const serial = (this.serial += 1);
    const out = (id: string) => `${id}-${serial}`;
    const groups = new Map<string, string[]>();
    for (const id of ids) {
      const key = JSON.stringify(this.buildProperties(id));
      groups.set(key, [...(groups.get(key) ?? []), id]);
    }
    const results = await Promise.all(
      [...groups].map(([key, group]) =>
        esbuild.build({
          entryPoints: group.map((id) => ({
            in: join(this.root, this.entries.get(id)!.entry),
            out: out(id),
          })),
          outdir: this.outdir,
          ...esbuildOptions(JSON.parse(key)),
          plugins: [sharedPackages(this.root)],
          metafile: true,
          logLevel: 'silent',
        }),
      ),
    );
    const outputs = Object.assign(
      {},
      ...results.map((r) => r.metafile.outputs),
    ) as esbuild.Metafile['outputs'];
    const fresh = new Map<string, Built>();
    for (const id of ids) {
      const file = join(this.outdir, `${out(id)}${bundleExtension(this.buildProperties(id))}`);
      const output = Object.entries(outputs).find(([k]) => resolve(k) === file)?.[1];
      const inputs = new Set(Object.keys(output?.inputs ?? {}).map((k) => resolve(k)));
      this.drop(id);
      fresh.set(id, { file, inputs });
      this.built.set(id, { file, inputs });
    }
    return fresh;
  }

  private drop(id: string): void {
    const old = this.built.get(id);
    if (old) {
      rmSync(old.file, { force: true });
      rmSync(`${old.file}.map`, { force: true });
    }
    this.loaded.delete(id);
  }

  /** Resolves once the sources are being watched. */
  private watch(): Promise<void> {
    const dirs = WATCHED.map((d) => join(this.root, d)).filter(existsSync);
    const source = /\.(ts|js|json)$/;
    const w = watch(dirs, {
      ignoreInitial: true,
      ignored: (path, stats) => !!stats?.isFile() && !source.test(path),
    });
    w.on('all', (event, path) => {
      if (!['add', 'change', 'unlink'].includes(event) || !source.test(path)) return;
      this.pending.add(resolve(path));
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.rebuilding = this.reload();
      }, 100);
    });
    w.on('error', () => {});
    this.watcher = w;
    return new Promise((ready) => w.once('ready', () => ready()));
  }

  /** Rebuilds the built functions that include a changed file, in one esbuild run. */
  private async reload(): Promise<void> {
    const changed = [...this.pending];
    this.pending.clear();
    const affected = [...this.built]
      .filter(([, b]) => changed.some((f) => b.inputs.has(f)))
      .map(([id]) => id);
    const names = changed.map((f) => relative(this.root, f)).join(', ');
    const log = this.opts.log ?? (() => {});
    if (affected.length === 0) {
      this.generation += 1;
      return log(`changed ${names}: no loaded function uses it`);
    }
    const t0 = performance.now();
    try {
      await this.build(affected);
      log(`changed ${names}: rebuilt ${summary(affected)} in ${Math.round(performance.now() - t0)} ms`);
    } catch (err) {
      for (const id of affected) this.drop(id);
      for (const id of affected) this.built.delete(id);
      log(
        `changed ${names}: build failed, ${affected.length} function(s) answer 503 until fixed\n` +
          buildErrors(err),
      );
    }
    this.generation += 1;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
    await this.rebuilding.catch(() => {});
    this.loaded.clear();
    rmSync(this.outdir, { recursive: true, force: true });
  }
}

/**
 * The esbuild options of SAM's flags for these BuildProperties (samEsbuildArgs, infra/deploy/build.ts:
 * its defaults, then each key it passes); a key SAM would drop is refused there.
 */
export function esbuildOptions(bp: Record<string, unknown>): esbuild.BuildOptions {
  samEsbuildArgs(bp, '.');
  const list = (key: string) => (bp[key] as string[] | undefined) ?? [];
  // `--loader:.wasm=binary`, `--out-extension:.js=.mjs`, `--banner:js=...`: name=value, the value may hold `=`.
  const pairs = (key: string) =>
    Object.fromEntries(
      list(key).map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]),
    );
  return {
    bundle: true,
    platform: 'node',
    format: (bp.Format as esbuild.Format | undefined) ?? 'cjs',
    target: (bp.Target as string | undefined) ?? 'es2020',
    minify: bp.Minify === undefined ? true : bp.Minify === true,
    ...(bp.MainFields ? { mainFields: String(bp.MainFields).split(',') } : {}),
    sourcemap: bp.Sourcemap === true ? 'linked' : false,
    ...(bp.SourcesContent !== undefined ? { sourcesContent: String(bp.SourcesContent) !== 'false' } : {}),
    ...(bp.External ? { external: list('External') } : {}),
    ...(bp.Loader ? { loader: pairs('Loader') as Record<string, esbuild.Loader> } : {}),
    ...(bp.OutExtension ? { outExtension: pairs('OutExtension') } : {}),
    ...(bp.Banner ? { banner: pairs('Banner') } : {}),
  };
}

/**
 * npm packages are not bundled into each function here: a bundle imports the AWS SDK, middy, valibot
 * and the rest from node_modules (each environment, a worker thread, loads its own copy once; the
 * bundles stay small and build fast). Each package is imported as Node resolves an `import` from the repository root
 * (the ES builds that `MainFields: module,main` bundles in Lambda), and a bundle reaches it through a
 * small ES module of its exports (below) that `require`s it by URL (an ES module bundle: `import`s
 * it, and Node's module cache hands it the same copy): the bundle keeps its format, and its default
 * and named imports mean what they mean in the deployed bundle. The functions' own code (functions/,
 * lib/) is bundled per function, as in Lambda, and so is a package's `.wasm` file (esbuild's binary
 * loader embeds it, as in Lambda; Node cannot import it). A package Node cannot resolve from the root
 * is bundled after all.
 */
function sharedPackages(root: string): esbuild.Plugin {
  const fromRoot = createRequire(join(root, 'package.json'));
  const resolveImport = (path: string): string =>
    resolve(root) === resolve(ROOT) ? import.meta.resolve(path) : pathToFileURL(fromRoot.resolve(path)).href;
  return {
    name: 'shared-packages',
    setup(build) {
      build.onResolve({ filter: /.*/, namespace: 'shared-package' }, (args) => ({
        path: args.path,
        external: true,
      }));
      const esm = build.initialOptions.format === 'esm';
      build.onResolve({ filter: /^[^./#]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        if (args.path.endsWith('.wasm')) return undefined;
        try {
          return { path: resolveImport(args.path), namespace: 'shared-package', sideEffects: false };
        } catch {
          return undefined;
        }
      });
      build.onLoad({ filter: /.*/, namespace: 'shared-package' }, async (args) => {
        const exports = await sharedPackage(args.path);
        const names = Object.keys(exports);
        const url = JSON.stringify(args.path);
        return {
          loader: 'js',
          contents: [
            esm ? `import * as pkg from ${url};` : `const pkg = require(${url});`,
            'const pick = (name) => pkg[name];',
            ...names.map((name, i) => `const e${i} = /* @__PURE__ */ pick(${JSON.stringify(name)});`),
            `export { ${names.map((name, i) => `e${i} as ${JSON.stringify(name)}`).join(', ')} };`,
          ].join('\n'),
        };
      });
    },
  };
}

/** The packages the bundles share, by URL: each imported once, on the build that first needs it. */
const shared = new Map<string, Record<string, unknown>>();

/** The packages the bundles built so far import, by URL (an environment's spare preloads them). */
export const sharedPackageUrls = (): string[] => [...shared.keys()];
async function sharedPackage(url: string): Promise<Record<string, unknown>> {
  const loaded = shared.get(url) ?? (await nativeImport(url));
  shared.set(url, loaded);
  return loaded;
}

/** How many times an ES module bundle was loaded: each load its own URL, so a fresh module. */
let esmLoads = 0;

/**
 * Loads an ES module bundle as Lambda loads an `.mjs` handler, with Node's own import() (a fresh
 * module every time, as loadCommonJs; its imports of shared packages resolve, by URL, to the copies
 * sharedPackage imported). Node never unloads an ES module: a function loaded again after eviction
 * or a crash leaves its former instance in memory.
 */
function loadEsModule(file: string): Promise<Record<string, unknown>> {
  esmLoads += 1;
  return nativeImport(`${pathToFileURL(file).href}?load=${esmLoads}`);
}

/**
 * Loads a bundle as Node loads a CommonJS `.js` handler (a fresh module every time: a function
 * loaded again after eviction starts cold), its `require` of a shared package answered with the
 * package's loaded copy (sharedPackages) and every other `require` (Node's built-in modules) by Node.
 * The source is compiled directly, so no loader hook of the host (tsx, vitest) transforms it.
 */
function loadCommonJs(file: string): Record<string, unknown> {
  type Internal = Module & {
    _compile(source: string, filename: string): unknown;
    require(id: string): unknown;
  };
  const mod = new Module(file) as Internal;
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    dirname(file),
  );
  const nodeRequire = Module.prototype.require;
  mod.require = (id: string) => shared.get(id) ?? nodeRequire.call(mod, id);
  mod._compile(readFileSync(file, 'utf8'), file);
  mod.loaded = true;
  return mod.exports as Record<string, unknown>;
}

/** Function ids for a log line: all of a few, or the first ones and how many. */
const summary = (ids: string[]) =>
  ids.length <= 4 ? ids.join(', ') : `${ids.length} functions (${ids.slice(0, 3).join(', ')}, ...)`;

/** A function's module threw while it was loaded (Lambda's init error). */
export class InitError extends Error {
  constructor(
    readonly functionId: string,
    readonly error: unknown,
  ) {
    super(`${functionId} failed during init: ${(error as Error)?.stack ?? String(error)}`);
  }
}

export const buildErrors = (err: unknown): string =>
  ((err as esbuild.BuildFailure).errors ?? [])
    .map((e) => `${e.location?.file}:${e.location?.line} ${e.text}`)
    .join('\n') || String((err as Error).message ?? err);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Build folders start with their runner's pid; those of runners that are gone (killed) are removed. */
function removeDeadBuilds(parent: string): void {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const pid = /^(\d+)-/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}
