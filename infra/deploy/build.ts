// Builds every function exactly as `sam build` does: SAM's esbuild workflow (aws-lambda-builders,
// nodejs_npm_esbuild) runs `esbuild <EntryPoints> --bundle --platform=node --outdir=<artifacts>`, adds
// --target=es2020 / --format=cjs / --minify when BuildProperties leave them out, then one flag per
// BuildProperties key (snake_case → kebab-case: `true` → --key, string → --key=value, list →
// --key:item). One esbuild run per function, from the CodeUri folder (the repository root).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { listFunctions, loadTemplate, ROOT, type Template } from '../local/template.ts';

const run = promisify(execFile);
const ESBUILD = join(ROOT, 'node_modules', '.bin', 'esbuild');

/** Keys Lambda Builders sets itself or does not pass to esbuild. */
const NOT_PASSED = new Set(['bundle', 'platform', 'outdir', 'entry_points', 'use_npm_ci']);

const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const kebab = (key: string) => key.replace(/_/g, '-');

/** The esbuild arguments SAM passes for a function's Metadata.BuildProperties. */
export function samEsbuildArgs(buildProperties: Record<string, unknown>, outdir: string): string[] {
  const config = Object.fromEntries(Object.entries(buildProperties).map(([k, v]) => [snake(k), v]));
  const args = [...(config.entry_points as string[])];
  args.push('--bundle', '--platform=node', `--outdir=${outdir}`);
  if (!('target' in config)) args.push('--target=es2020');
  if (!('format' in config)) args.push('--format=cjs');
  if (!('minify' in config)) args.push('--minify');
  for (const [key, value] of Object.entries(config)) {
    if (NOT_PASSED.has(key)) continue;
    if (value === true) args.push(`--${kebab(key)}`);
    else if (typeof value === 'string') args.push(`--${kebab(key)}=${value}`);
    else if (Array.isArray(value)) args.push(...value.map((item) => `--${kebab(key)}:${item}`));
  }
  return args;
}

export interface BuiltFunction {
  id: string;
  entry: string;
  handler: string; // exported name (Handler: <file>.<name>)
  file: string; // the bundle Lambda loads: <outdir>/<file>.js
  args: string[];
  code: string;
  /** Source files that put code in the bundle (from its source map), with their text. */
  sources: Array<{ path: string; content: string }>;
}

const load = (fn: ReturnType<typeof listFunctions>[number], file: string, args: string[]): BuiltFunction => {
  // The maps carry no sourcesContent (SourcesContent: 'false'), so each source is read from disk. A
  // package's own source map may name files it does not ship: those read as empty.
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  const text = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  const sources = map.sources.map((path) => ({ path, content: text(resolve(dirname(file), path)) }));
  const handler = String(fn.properties.Handler).split('.').pop()!;
  return { id: fn.id, entry: fn.entry, handler, file, args, code: readFileSync(file, 'utf8'), sources };
};

/**
 * Builds every function of the template into `outRoot`. `exact`: one esbuild run per function,
 * exactly as SAM runs it (outRoot/<FunctionId>/<file>.js). `shared` (fast; tests, deploy:sync): one
 * run with every entry point and the same flags (plus --outbase=., which only places the files);
 * without code splitting each bundle is the same as its own run's.
 */
export async function buildFunctions(
  outRoot: string,
  mode: 'exact' | 'shared',
  template: Template = loadTemplate(),
): Promise<BuiltFunction[]> {
  rmSync(outRoot, { recursive: true, force: true });
  mkdirSync(outRoot, { recursive: true });
  // Lambda's /var/task has no package.json, so a .js bundle is CommonJS there; under this repository
  // ("type": "module") it would load as ESM. This file restores Lambda's reading.
  writeFileSync(join(outRoot, 'package.json'), '{ "type": "commonjs" }\n');
  const functions = listFunctions(template);
  if (mode === 'shared') {
    const flags = (fn: (typeof functions)[number]) =>
      samEsbuildArgs(fn.metadata.BuildProperties ?? {}, outRoot).filter((a) => a.startsWith('--'));
    const common = flags(functions[0]);
    const odd = functions.find((fn) => flags(fn).join(' ') !== common.join(' '));
    if (odd) return buildFunctions(outRoot, 'exact', template); // different BuildProperties: one run each
    const args = [...functions.map((fn) => fn.entry), ...common, '--outbase=.'];
    await run(ESBUILD, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    return functions
      .map((fn) => load(fn, join(outRoot, fn.entry.replace(/\.[cm]?[jt]s$/, '.js')), args))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
  const built: BuiltFunction[] = [];
  const queue = [...functions];
  const worker = async () => {
    for (let fn = queue.shift(); fn; fn = queue.shift()) {
      const outdir = join(outRoot, fn.id);
      mkdirSync(outdir, { recursive: true });
      const args = samEsbuildArgs(fn.metadata.BuildProperties ?? {}, outdir);
      await run(ESBUILD, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
      built.push(load(fn, join(outdir, `${String(fn.properties.Handler).split('.')[0]}.js`), args));
    }
  };
  await Promise.all([worker(), worker()]);
  return built.sort((a, b) => a.id.localeCompare(b.id));
}
