// `npm run bench -- --floor-builds`: which build gives the fastest cold start (load + first call) for
// the same handler? Each floor of infra/bench/floors is built several ways and measured like
// the functions (infra/bench/coldstart.ts: a fresh Node 24 per sample, the handler imported or
// required and called once against the stub endpoint on loopback), the builds alternating in rounds.
// The fastest build that `sam build` can make is the one template.yaml uses (docs/deploy.md).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as esbuild from 'esbuild';
import { BUILD_PROPERTIES, REQUIRE_BANNER } from '../deploy/build.ts';
import { ROOT } from '../local/template.ts';
import { build, lambdaEnv, REFERENCE_BUILD, type Sample, sample, startStubEndpoint } from './coldstart.ts';
import { median, table } from './stats.ts';

/** The ES module build (the first one tried): `.mjs`, a `require` for CommonJS code in the bundle. */
const ESM_FLOOR_BUILD = {
  ...BUILD_PROPERTIES,
  Format: 'esm',
  OutExtension: ['.js=.mjs'],
  Banner: [REQUIRE_BANNER],
} as const;

interface Variant {
  name: string;
  /** Whether `sam build` (aws-lambda-builders' esbuild workflow) can produce it. */
  sam: string;
  file: string;
  env?: Record<string, string>;
}

const FLOOR_EVENT = { id: 'x', body: 'x', phone: '+15550100', email: 'bench@example.com' };

/** The floor's source with the SDK primed at init: its clients' first request, awaited at top level. */
function primedSource(floor: string): string {
  const src = readFileSync(join(ROOT, 'infra/bench/floors', `${floor}.ts`), 'utf8');
  const primed = `${src}
// Priming: one request during init (credentials, endpoint rules, signing, a connection, parsing).
await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: 'prime' }, sk: { S: 'prime' } } })).catch(() => undefined);
`;
  // Under the repository, so that the SDK resolves from its node_modules.
  const file = join(ROOT, '.local', 'floor-builds', `${floor}-primed.ts`);
  mkdirSync(join(ROOT, '.local', 'floor-builds'), { recursive: true });
  writeFileSync(file, primed);
  return file;
}

export async function floorBuilds(opts: { outdir: string; rounds: number; floors: string[] }) {
  const stub = await startStubEndpoint();
  const rows: string[][] = [];
  try {
    for (const floor of opts.floors) {
      const dir = join(opts.outdir, floor);
      mkdirSync(dir, { recursive: true });
      const entry = join(ROOT, 'infra/bench/floors', `${floor}.ts`);
      const cjs = await build(entry, join(dir, 'cjs'), REFERENCE_BUILD);
      const cjsModule = await build(entry, join(dir, 'cjs-module'), BUILD_PROPERTIES);
      const esm = await build(entry, join(dir, 'esm'), ESM_FLOOR_BUILD);
      const esmMain = await build(entry, join(dir, 'esm-main'), {
        ...ESM_FLOOR_BUILD,
        MainFields: 'main,module',
      });
      // Awaiting the primed request at init needs top-level await: an ES module.
      const primed = await build(primedSource(floor), join(dir, 'primed'), ESM_FLOOR_BUILD);
      // Code splitting: esbuild's --splitting, which aws-lambda-builders does not pass (esbuild.py).
      // Every dynamic import of the SDK (credential providers, ...) becomes a chunk loaded on first use.
      const splitDir = join(dir, 'split');
      await esbuild.build({
        entryPoints: [entry],
        outdir: splitDir,
        bundle: true,
        platform: 'node',
        format: 'esm',
        splitting: true,
        outExtension: { '.js': '.mjs' },
        mainFields: ['module', 'main'],
        banner: { js: ESM_FLOOR_BUILD.Banner[0].slice(3) },
        target: BUILD_PROPERTIES.Target,
        minify: true,
        sourcemap: true,
        sourcesContent: false,
        logLevel: 'silent',
      });
      // V8's compile cache (NODE_COMPILE_CACHE), filled by one earlier run of the same file and path.
      const cacheDir = join(dir, 'compile-cache');
      const variants: Variant[] = [
        { name: 'cjs, main fields (the old build)', sam: 'yes', file: cjs.file },
        { name: 'cjs, module fields first (template.yaml)', sam: 'yes', file: cjsModule.file },
        { name: 'esm, main fields first', sam: 'yes', file: esmMain.file },
        { name: 'esm, module fields first', sam: 'yes', file: esm.file },
        { name: 'esm + splitting', sam: 'no: no Splitting key', file: join(splitDir, `${floor}.mjs`) },
        { name: 'esm + SDK primed at init', sam: 'yes', file: primed.file },
        {
          name: 'cjs, module fields + V8 compile cache',
          sam: 'no: not in the package',
          file: cjsModule.file,
          env: { NODE_COMPILE_CACHE: cacheDir },
        },
      ];
      const env = { ...lambdaEnv('--enable-source-maps', stub.url), ...stub.env };
      await sample(cjsModule.file, 'handler', FLOOR_EVENT, { ...env, NODE_COMPILE_CACHE: cacheDir });
      const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
      for (let i = 0; i < opts.rounds; i++) {
        for (let j = 0; j < variants.length; j++) {
          const v = variants[(i + j) % variants.length];
          samples.get(v.name)!.push(await sample(v.file, 'handler', FLOOR_EVENT, { ...env, ...v.env }));
        }
      }
      const base = samples.get(variants[0].name)!;
      for (const v of variants) {
        const s = samples.get(v.name)!;
        const med = (k: 'loadMs' | 'totalMs' | 'rss') => median(s.map((x) => x[k]));
        rows.push([
          floor,
          v.name,
          v.sam,
          med('loadMs').toFixed(1),
          med('totalMs').toFixed(1),
          median(s.map((x, i) => x.totalMs / base[i].totalMs)).toFixed(2),
          (med('rss') / 1024 / 1024).toFixed(1),
        ]);
      }
      process.stderr.write(`floor builds: ${basename(floor)} measured\n`);
    }
  } finally {
    await stub.close();
    rmSync(opts.outdir, { recursive: true, force: true });
  }
  return table(
    ['floor', 'build', 'sam build can make it', 'load ms', 'load + first call ms', '× old build', 'peak MiB'],
    rows,
  );
}
