// Cold start of every function against its floor (issue 12). Each function is bundled as `sam build`
// bundles it (SAM's esbuild workflow with the function's Metadata.BuildProperties), and so is the
// floor it is compared with: the least handler that creates the AWS clients the function may use
// (infra/bench/floors/*.ts). Which clients a function may use comes from its IAM policies in
// template.yaml; which clients a bundle holds, from esbuild's metafile. Each sample is a fresh
// `node` process (this Node 24, with the function's NODE_OPTIONS) that require()s the bundle and
// reports the time the require took and the process's peak RSS. Floor and function run in pairs,
// alternating which goes first; a ratio is the median of the per-pair ratios.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as esbuild from 'esbuild';
import { listFunctions, loadTemplate, ROOT, type Template } from '../local/template.ts';
import { median } from './stats.ts';

/** A function fails the bench when any of its ratios to its floor is above this (noise margin). */
export const FAIL_RATIO = 1.3;
/** What the functions aim at: load time, peak memory and bundle bytes relative to the floor. */
export const TARGETS = { load: 1.2, memory: 1.15, bundle: 1.3 } as const;

const FLOORS_DIR = join(ROOT, 'infra/bench/floors');
/** AWS service prefix (IAM action, SAM policy template) of each SDK client package we use. */
const CLIENT_PACKAGES: Record<string, string> = {
  'client-dynamodb': 'dynamodb',
  'client-s3': 's3',
  'client-sns': 'sns',
  'client-sesv2': 'ses',
  'client-ses': 'ses',
  'client-secrets-manager': 'secretsmanager',
  'client-sqs': 'sqs',
};
const SERVICES = new Set(Object.values(CLIENT_PACKAGES));

type BuildProperties = Record<string, unknown>;
export interface Built {
  file: string;
  bytes: number;
  clients: string[];
}
interface Sample {
  ms: number;
  rss: number;
}

/** The AWS services a function's IAM policies allow it to call (SAM policy templates and statements). */
export function policyServices(policies: unknown): string[] {
  const found = new Set<string>();
  const fromAction = (a: unknown) => {
    const s = String(a).split(':')[0].toLowerCase();
    if (SERVICES.has(s)) found.add(s);
  };
  for (const p of Array.isArray(policies) ? policies : [policies]) {
    if (typeof p === 'string') continue; // a managed policy ARN: none of ours
    for (const [name, value] of Object.entries(p ?? {})) {
      if (name === 'Statement') {
        for (const st of [value].flat() as Array<{ Effect?: string; Action?: unknown }>) {
          if (st.Effect !== 'Deny') [st.Action].flat().forEach(fromAction);
        }
      } else {
        const prefix = /^(?:AWS)?(DynamoDB|S3|SNS|SES|SecretsManager)/i.exec(name)?.[1].toLowerCase();
        if (prefix) found.add(prefix);
      }
    }
  }
  return [...found].sort();
}

/** The SDK clients a bundle holds, from the esbuild metafile of its build. */
function bundledServices(meta: esbuild.Metafile, output: string): string[] {
  const found = new Set<string>();
  for (const input of Object.keys(meta.outputs[output].inputs)) {
    const pkg = /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//.exec(input)?.[1];
    if (pkg && CLIENT_PACKAGES[pkg]) found.add(CLIENT_PACKAGES[pkg]);
  }
  return [...found].sort();
}

/** esbuild options of SAM's esbuild workflow (aws-lambda-builders) for these BuildProperties. */
export function samEsbuildOptions(bp: BuildProperties): esbuild.BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    format: (bp.Format as esbuild.Format | undefined) ?? 'cjs',
    target: (bp.Target as string | undefined) ?? 'es2020',
    minify: (bp.Minify as boolean | undefined) ?? true,
    sourcemap: bp.Sourcemap === true,
    sourcesContent: String(bp.SourcesContent ?? 'true') !== 'false',
    external: bp.External as string[] | undefined,
    mainFields: typeof bp.MainFields === 'string' ? bp.MainFields.split(',') : undefined,
    logLevel: 'silent',
    metafile: true,
  };
}

export async function build(entry: string, outdir: string, bp: BuildProperties): Promise<Built> {
  const result = await esbuild.build({ ...samEsbuildOptions(bp), entryPoints: [entry], outdir });
  const output = Object.keys(result.metafile!.outputs).find((o) => o.endsWith('.js'))!;
  const file = join(outdir, basename(output));
  return { file, bytes: statSync(file).size, clients: bundledServices(result.metafile!, output) };
}

// The child: require the bundle, check the handler is there, report the require time and peak RSS.
// Peak RSS is Linux's VmHWM, the high-water mark of the process's own address space. Not
// resourceUsage().maxRSS: Linux carries ru_maxrss across execve, so a child would report its
// parent's peak whenever the parent (the bench, with a whole stack loaded) is the larger one.
const PROBE = `const t=performance.now();const m=require(process.argv[1]);const ms=performance.now()-t;
if(typeof m[process.argv[2]]!=='function')throw new Error('no handler '+process.argv[2]);
let rss;try{rss=+/VmHWM:\\s*(\\d+) kB/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1]*1024}
catch{rss=process.resourceUsage().maxRSS*1024}
process.stdout.write(JSON.stringify({ms,rss}),()=>process.exit(0))`;

function sample(file: string, handler: string, env: Record<string, string>): Sample {
  return JSON.parse(
    execFileSync(process.execPath, ['-e', PROBE, file, handler], { env }).toString(),
  ) as Sample;
}

/** A Lambda-like environment: the function's NODE_OPTIONS (SAM adds --enable-source-maps with Sourcemap). */
function lambdaEnv(nodeOptions: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    TABLE_NAME: 'bench',
    BUCKET_NAME: 'bench',
    AWS_LAMBDA_LOG_FORMAT: 'JSON',
    AWS_LAMBDA_LOG_LEVEL: 'ERROR',
    NODE_OPTIONS: nodeOptions,
  };
}

export interface ColdStartRow {
  id: string;
  floor: string;
  clients: string[];
  bytes: number;
  floorBytes: number;
  loadMs: number;
  floorLoadMs: number;
  rss: number;
  floorRss: number;
  ratios: { bundle: number; load: number; memory: number };
  problems: string[];
}

/** Builds every floor with these BuildProperties; name (file name without .ts) → bundle. */
export async function buildFloors(outdir: string, bp: BuildProperties): Promise<Map<string, Built>> {
  const built = new Map<string, Built>();
  for (const f of readdirSync(FLOORS_DIR).filter((n) => n.endsWith('.ts'))) {
    built.set(basename(f, '.ts'), await build(join(FLOORS_DIR, f), outdir, bp));
  }
  return built;
}

/** The clients a function's floor must create: those its policies allow, and DynamoDB for every function. */
export const floorServices = (policies: unknown) =>
  [...new Set(['dynamodb', ...policyServices(policies)])].sort();

/** The floor whose bundle holds exactly `services`. */
export const floorOf = (floors: Map<string, Built>, services: string[]) =>
  [...floors.keys()].find((n) => floors.get(n)!.clients.join('+') === services.join('+'));

export async function coldStart(opts: {
  outdir: string;
  pairs: number;
  only?: (id: string) => boolean;
  /** template.yaml unless given (the bench's own test runs it on fixture functions). */
  template?: Template;
}) {
  const template = opts.template ?? loadTemplate();
  const globalEnv = (template.Globals?.Function?.Environment as any)?.Variables ?? {};
  const floorCache = new Map<string, Map<string, Built>>();
  const floorsFor = async (bp: BuildProperties) => {
    const key = JSON.stringify(bp);
    if (!floorCache.has(key))
      floorCache.set(key, await buildFloors(join(opts.outdir, `floors-${floorCache.size}`), bp));
    return floorCache.get(key)!;
  };

  const rows: ColdStartRow[] = [];
  for (const fn of listFunctions(template).filter((f) => !opts.only || opts.only(f.id))) {
    const { EntryPoints, ...bp } = fn.metadata.BuildProperties ?? {};
    const fnBuilt = await build(join(ROOT, fn.entry), join(opts.outdir, fn.id), bp);
    const allowed = policyServices(fn.properties.Policies ?? []);
    // Every function here uses the table; one without AWS permissions is held to the DynamoDB floor.
    const wanted = floorServices(fn.properties.Policies ?? []);
    const floors = await floorsFor(bp);
    const floorName = floorOf(floors, wanted);
    const problems: string[] = [];
    const extra = fnBuilt.clients.filter((c) => !allowed.includes(c));
    if (extra.length)
      problems.push(`bundles the ${extra.join(', ')} client(s) its policies never allow it to call`);
    if (!floorName)
      throw new Error(`${fn.id}: no floor in infra/bench/floors creates exactly ${wanted.join(', ')}`);
    const floor = floors.get(floorName)!;

    const vars = { ...globalEnv, ...(fn.properties.Environment?.Variables ?? {}) };
    let nodeOptions = typeof vars.NODE_OPTIONS === 'string' ? vars.NODE_OPTIONS : '';
    if (bp.Sourcemap === true && !nodeOptions.includes('--enable-source-maps'))
      nodeOptions = `${nodeOptions} --enable-source-maps`.trim();
    const env = lambdaEnv(nodeOptions);
    const handlerName = String(fn.properties.Handler ?? 'index.handler')
      .split('.')
      .pop()!;
    const loadRatios: number[] = [];
    const rssRatios: number[] = [];
    const fnSamples: Sample[] = [];
    const floorSamples: Sample[] = [];
    for (let i = 0; i < opts.pairs; i++) {
      const first = i % 2 === 0;
      const a = first ? sample(floor.file, 'handler', env) : undefined;
      const b = sample(fnBuilt.file, handlerName, env);
      const f = a ?? sample(floor.file, 'handler', env);
      fnSamples.push(b);
      floorSamples.push(f);
      loadRatios.push(b.ms / f.ms);
      rssRatios.push(b.rss / f.rss);
    }
    const ratios = {
      bundle: fnBuilt.bytes / floor.bytes,
      load: median(loadRatios),
      memory: median(rssRatios),
    };
    for (const [k, v] of Object.entries(ratios))
      if (v > FAIL_RATIO) problems.push(`${k} ${v.toFixed(2)}× its floor (limit ${FAIL_RATIO}×)`);
    process.stderr.write(
      `cold start: ${fn.id} load ${ratios.load.toFixed(2)}× memory ${ratios.memory.toFixed(2)}×\n`,
    );
    rows.push({
      id: fn.id,
      floor: floorName,
      clients: fnBuilt.clients,
      bytes: fnBuilt.bytes,
      floorBytes: floor.bytes,
      loadMs: median(fnSamples.map((s) => s.ms)),
      floorLoadMs: median(floorSamples.map((s) => s.ms)),
      rss: median(fnSamples.map((s) => s.rss)),
      floorRss: median(floorSamples.map((s) => s.rss)),
      ratios,
      problems,
    });
  }
  return rows;
}

const kib = (n: number) => (n / 1024).toFixed(0);
const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
const x = (r: number, target: number) => `${r.toFixed(2)}${r > target ? ' !' : ''}`;

/** The table `npm run bench` prints (and the README shows); "!" marks a ratio above its target. */
export function coldStartTable(rows: ColdStartRow[]): { head: string[]; body: string[][] } {
  return {
    head: [
      'function',
      'floor',
      'KiB',
      'floor KiB',
      'bundle ×',
      'load ms',
      'floor ms',
      'load ×',
      'MiB',
      'floor MiB',
      'memory ×',
      'result',
    ],
    body: rows.map((r) => [
      r.id,
      r.floor,
      kib(r.bytes),
      kib(r.floorBytes),
      x(r.ratios.bundle, TARGETS.bundle),
      r.loadMs.toFixed(1),
      r.floorLoadMs.toFixed(1),
      x(r.ratios.load, TARGETS.load),
      mib(r.rss),
      mib(r.floorRss),
      x(r.ratios.memory, TARGETS.memory),
      r.problems.length ? 'FAIL' : 'ok',
    ]),
  };
}
