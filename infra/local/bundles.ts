// Bundles every function with esbuild (as `sam build` does) into .local/build, and loads a bundle
// on first use. In watch mode a source change rebuilds the bundles and drops the loaded copies, so
// the next request runs the new code.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './template.ts';

const require = createRequire(import.meta.url);

export interface FunctionEntry { id: string; entry: string }
type Handler = (event: unknown, context: unknown) => Promise<unknown>;

export class Bundles {
  private ctx?: esbuild.BuildContext;
  private readonly outdir: string;
  private readonly loaded = new Map<string, Handler>();
  private firstBuild!: () => void;
  private readonly built = new Promise<void>((resolve) => { this.firstBuild = resolve; });
  private buildError?: string;
  generation = 0;

  private readonly root: string;

  constructor(private readonly functions: FunctionEntry[], opts: { outdir?: string; root?: string } = {}) {
    this.root = opts.root ?? ROOT;
    // <pid>-<random>: one folder per Bundles, so runners in one process never share (or delete) bundles.
    this.outdir = opts.outdir ?? join(this.root, '.local', 'build', `${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  options(): esbuild.BuildOptions {
    return {
      // A function whose source file is missing is left out (and answers as an integration failure).
      entryPoints: this.functions.filter((f) => existsSync(join(this.root, f.entry))).map((f) => ({ in: join(this.root, f.entry), out: f.id })),
      outdir: this.outdir,
      bundle: true,
      platform: 'node',
      target: 'node24',
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      sourcemap: 'inline',
      metafile: true,
      logLevel: 'silent',
      plugins: [{
        name: 'reload',
        setup: (build) => {
          build.onEnd((result) => {
            this.buildError = result.errors.length ? result.errors.map((e) => `${e.location?.file}:${e.location?.line} ${e.text}`).join('\n') : undefined;
            if (this.buildError) console.error(`[runner] build failed:\n${this.buildError}`);
            for (const f of this.functions) delete require.cache[this.file(f.id)];
            this.loaded.clear();
            this.generation += 1;
            this.firstBuild();
          });
        },
      }],
    };
  }

  /** Builds once (tests, bench) or keeps watching the sources (npm start). */
  async start(watch: boolean): Promise<void> {
    removeDeadBuilds(dirname(this.outdir));
    this.ctx = await esbuild.context(this.options());
    if (watch) await this.ctx.watch();
    else await this.ctx.rebuild().catch(() => undefined);
    await this.built;
  }

  file(id: string): string { return join(this.outdir, `${id}.cjs`); }

  handler(id: string, exportName = 'handler'): Handler {
    const cached = this.loaded.get(id);
    if (cached) return cached;
    if (this.buildError) throw new Error(`build failed: ${this.buildError}`);
    if (!existsSync(this.file(id))) throw new Error(`${id} has no bundle (is its source file missing?)`);
    const mod = require(this.file(id));
    const fn = mod[exportName] as Handler;
    if (typeof fn !== 'function') throw new Error(`${id} does not export ${exportName}`);
    this.loaded.set(id, fn);
    return fn;
  }

  async stop(): Promise<void> {
    await this.ctx?.dispose();
    rmSync(this.outdir, { recursive: true, force: true });
  }
}

const alive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
};

/** Build folders start with their runner's pid; those of runners that are gone (killed) are removed. */
function removeDeadBuilds(parent: string): void {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const pid = /^(\d+)-/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}
