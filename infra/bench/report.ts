// `npm run bench -- --write-docs`: the figures of one full run written into the pages that show
// them, between markers (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`): in the README, what a
// user pays per route and per note write, and the cold-start verdict; in docs/benchmarks.md, every
// route's requests, billed units and p50/p99, the whole cost table, the pipeline and the load run
// (block `routes`), the cold-start table (block `cold`) and the live figures (block `live`: latency,
// the revocation delay at 50 active notes). Nothing outside the markers changes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/template.ts';
import { type ColdStartRow, coldStartTable, TARGETS } from './coldstart.ts';
import {
  COST_HEAD,
  costRows,
  HACKMD_MIX,
  mixCost,
  pricesLine,
  README_COST_HEAD,
  type RouteUsage,
  readmeCostRows,
  searchEditRequests,
} from './cost.ts';
import { median, table } from './stats.ts';
import type { LiveFigures } from './live.ts';
import type { PipelineCost } from './webhook-cost.ts';

/** Replaces what stands between a page's markers for `name`; throws when the page has none. */
export function replaceBlock(text: string, name: string, content: string): string {
  const begin = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${begin} … ${end} block`);
  return `${text.slice(0, i + begin.length)}\n${content.trim()}\n${text.slice(j)}`;
}

/** What stands between a page's markers for `name` (undefined without them). */
export function block(text: string, name: string): string | undefined {
  const begin = `<!-- bench:${name} -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(`<!-- /bench:${name} -->`);
  return i < 0 || j < i ? undefined : text.slice(i + begin.length, j).trim();
}

const dollars = (n: number) => `$${n.toFixed(2)}`;

function runLine(note: string) {
  let commit = 'uncommitted';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    /* not a checkout */
  }
  return `\`npm run bench\` of ${new Date().toISOString().slice(0, 10)} at ${commit} (${note})`;
}

export interface RunFigures {
  /** The machine's state, said with the figures (a shared 2-core machine: ratios, not absolutes). */
  note: string;
  routesTable?: string;
  usage?: RouteUsage[];
  pipeline?: PipelineCost;
  load?: string;
  cold?: ColdStartRow[];
  live?: LiveFigures;
}

/** The README's cost block: the short table, the mix, the pipeline per note write, the prices. */
export function readmeCost(f: Required<Pick<RunFigures, 'usage' | 'pipeline' | 'note'>>): string {
  const mix = (gw: 'rest' | 'http') => dollars(mixCost(f.usage, HACKMD_MIX, gw));
  return [
    `Dollars per million calls, from one ${runLine(f.note)}: DynamoDB at the write and read units AWS`,
    'bills for each call (priced from the items it reads and writes), API Gateway per request, Lambda',
    "(arm64, 512 MB) at the call's median duration through the local runner, about 1,250 bytes of logs.",
    '',
    table(README_COST_HEAD, readmeCostRows(f.usage)),
    '',
    `A HackMD-like mix (45 % note reads, 15 % edits, 15 % lists, 10 % \`me\`, 5 % history, creates and deletes):`,
    `**${mix('rest')}** per million calls (${mix('http')} behind an HTTP API; why REST stays:`,
    '[docs/architecture.md](docs/architecture.md#api-gateway-rest-apis-not-http-apis)). The webhook pipeline',
    `per note write: **${dollars(f.pipeline.without)}** per million writes in a workspace without webhooks`,
    `(no invocation), **${dollars(f.pipeline.with)}** with one (router, SQS, delivery; a slow receiver adds`,
    "the delivery's wait). Full-text search: a search is the `GET /v1/search` row (a workspace of a few",
    `notes); a note edit reaches the search index for **${dollars(searchEditRequests() * 1e6)}** per million edits in`,
    "requests (one S3 PUT, one head UpdateItem; docs/search.md), plus the indexer's compute, which grows",
    'with the workspace. Storage and data transfer are not included.',
    `${pricesLine()} Every route: [docs/benchmarks.md](docs/benchmarks.md#the-last-full-run).`,
  ].join('\n');
}

/** The README's live-editing rows (block `live`, under the cost table): per edit message and per connection-hour. */
export function readmeLive(l: LiveFigures, note: string): string {
  const row = (label: string, d: LiveFigures['editPerMillion']) => [
    label,
    dollars(d.dynamo),
    dollars(d.gateway),
    dollars(d.lambda),
    dollars(d.logs),
    dollars(d.total),
  ];
  const ms = (n: number) => n.toFixed(1);
  // The latency and revocation sentences stand before the table (one line with the rest: the README's length).
  return [
    `Live editing ([docs/live.md](docs/live.md)), dollars per million, from ${runLine(note)}: an edit ` +
      `message with three people connected (the $default function and the stream work it sets off; the ` +
      `message in and its two relays out) and one person connected for an hour (connection minutes; one ` +
      `connection opened: the REST call for its URL, $connect, the first sync, $disconnect; a keepalive ` +
      `every 9.5 minutes, answered by API Gateway), and the same hour of a client whose awareness renews ` +
      `every 15 s (y-websocket's; the example provider sends awareness only when it changes). ` +
      (l.latency
        ? `An edit reaches the two other clients in ${ms(l.latency.p50)} ms (p50), ${ms(l.latency.p99)} ms ` +
          `(p99; target ≤ 100 ms) at 3 clients × 5 edits/s through the local runner; \`GET /v1/me\` beside ` +
          `it: ${ms(l.latency.floorP50)} / ${ms(l.latency.floorP99)} ms (\`npm run bench -- --live\`).`
        : '') +
      (l.revocation ? ` ${revocationSentence(l.revocation)}` : ''),
    '',
    table(
      ['', 'DynamoDB', 'API Gateway', 'Lambda', 'logs', 'total'],
      [
        row('live edit message (3 people connected)', l.editPerMillion),
        ...(l.edit10PerMillion ? [row('live edit message (10 people connected)', l.edit10PerMillion)] : []),
        ...(l.typingMinutePerMillion
          ? [row('live typing minute, 5 chars/s (3 people connected)', l.typingMinutePerMillion)]
          : []),
        row('live connection-hour', l.hourPerMillion),
        ...(l.renewingHourPerMillion
          ? [row('live connection-hour, renewing every 15 s', l.renewingHourPerMillion)]
          : []),
      ],
    ),
  ].join('\n');
}

/** The 5 s revocation promise at 50 active notes, in one sentence (README and docs/benchmarks.md). */
function revocationSentence(r: NonNullable<LiveFigures['revocation']>): string {
  const ms = (n: number) => n.toFixed(0);
  return (
    `A write permission taken away reaches its connection (\`access_changed\`) in ${ms(r.p50)} ms ` +
    `(p50 of ${r.samples}; at most ${ms(r.max)} ms; target ≤ 5 s) while ${r.notes} other notes are each ` +
    `edited live (an edit a second each), ${(r.p50 / Math.max(r.floorP50, 0.01)).toFixed(2)}× its ` +
    `${ms(r.floorP50)} ms with no note active; \`GET /v1/me\` of another user meanwhile ` +
    `${ms(r.me.p50)} / ${ms(r.me.p99)} ms (p50 / p99), against ${ms(r.me.floorP50)} / ${ms(r.me.floorP99)} ms ` +
    `alone (target: p99 ≤ 1 s over it).`
  );
}

/** docs/benchmarks.md's live block: the latency and the revocation figures of the last `--live` run. */
export function docsLive(l: LiveFigures, note: string): string {
  const ms = (n: number) => n.toFixed(1);
  return [
    `From ${runLine(note)}` +
      (l.latency
        ? `: an edit reaches the two other clients in ${ms(l.latency.p50)} ms (p50), ` +
          `${ms(l.latency.p99)} ms (p99; target ≤ 100 ms) at 3 clients × 5 edits/s; \`GET /v1/me\` beside it ` +
          `${ms(l.latency.floorP50)} / ${ms(l.latency.floorP99)} ms.`
        : '.') +
      (l.revocation ? ` ${revocationSentence(l.revocation)}` : ''),
  ].join('\n');
}

/** The README's cold-start verdict: against what floor, how many within the target. */
export function readmeCold(rows: ColdStartRow[], note: string): string {
  const within = rows.filter((r) => r.ratios.coldStart <= TARGETS.coldStart).length;
  const ratios = rows.map((r) => r.ratios.coldStart);
  const base = rows.filter((r) => r.ratios.vsBaseline !== undefined).map((r) => r.ratios.vsBaseline!);
  return [
    `Cold start (${runLine(note)}): each function's load + first call (CPU time of the process) against`,
    'its **floor**, the fastest build of a handler that sends the same first-call requests with the raw',
    "SDK client (for Notes: the token's rate-limit `UpdateItem`, then the caller's `Query`): target ≤",
    `${TARGETS.coldStart}×; ${within} of ${rows.length} functions within it (median ${median(ratios).toFixed(2)}×, ` +
      `at most ${Math.max(...ratios).toFixed(2)}×)` +
      (base.length
        ? `; against the build before the cost work, median ${median(base).toFixed(2)}×, at most ` +
          `${Math.max(...base).toFixed(2)}× (target ≤ ${TARGETS.vsBaseline}×).`
        : '.'),
  ].join('\n');
}

/** docs/benchmarks.md's routes block: the routes, what they cost, the pipeline, the load run. */
export function docsRoutes(f: RunFigures): string {
  const parts = [`From ${runLine(f.note)}.`];
  if (f.routesTable)
    parts.push(
      '**Routes**: DynamoDB requests per call (mean of the timed calls), billed write and read units',
      "(max of the priced calls / target), DynamoDB Local's own capacity units, p50 / p99 through the",
      'local runner.',
      '',
      f.routesTable,
    );
  if (f.usage?.length)
    parts.push(
      '',
      `**What a user pays per million calls**, by component, behind REST (the last column: behind an HTTP API). ${pricesLine()}`,
      '',
      table(COST_HEAD, costRows(f.usage)),
      '',
      `HackMD-like mix: ${dollars(mixCost(f.usage, HACKMD_MIX, 'rest'))} per million calls behind REST, ` +
        `${dollars(mixCost(f.usage, HACKMD_MIX, 'http'))} behind an HTTP API.`,
    );
  if (f.pipeline) {
    const u = f.pipeline.usage;
    parts.push(
      '',
      `**Webhook pipeline per note write**: ${dollars(f.pipeline.without)} per million writes without a webhook, ` +
        `${dollars(f.pipeline.with)} with one (per write: ${u.routerInvocations.toFixed(2)} router and ` +
        `${u.deliveryInvocations.toFixed(2)} delivery invocations of ${u.routerMs.toFixed(1)} and ` +
        `${u.deliveryMs.toFixed(1)} ms, ${u.writeUnits.toFixed(2)} write and ${u.readUnits.toFixed(2)} read units, ` +
        `${u.sqsRequests.toFixed(1)} SQS requests; a loopback receiver).`,
    );
  }
  if (f.load) parts.push('', `**Load run**: ${f.load}`);
  return parts.join('\n');
}

/** docs/benchmarks.md's cold-start block: every function against its floor. */
export function docsCold(rows: ColdStartRow[], note: string): string {
  const t = coldStartTable(rows);
  const failed = rows.filter((r) => r.problems.length);
  return [
    `From ${runLine(note)}. "cold ×", "vs old build ×" and "vs baseline ×" compare CPU time (the`,
    'columns "CPU ms"); "wall ×" is the same ratio in wall time, which a busy machine inflates.',
    '',
    table(t.head, t.body),
    ...(failed.length ? ['', ...failed.map((r) => `FAIL ${r.id}: ${r.problems.join('; ')}`)] : []),
  ].join('\n');
}

/** Writes the run's figures into the README and docs/benchmarks.md (only the blocks it has figures for). */
export function writeDocs(f: RunFigures, root = ROOT): string[] {
  const written: string[] = [];
  const update = (file: string, blocks: Array<[string, string | undefined]>) => {
    const path = join(root, file);
    let text = readFileSync(path, 'utf8');
    for (const [name, content] of blocks) if (content !== undefined) text = replaceBlock(text, name, content);
    writeFileSync(path, text);
    written.push(file);
  };
  update('README.md', [
    [
      'cost',
      f.usage && f.pipeline ? readmeCost({ usage: f.usage, pipeline: f.pipeline, note: f.note }) : undefined,
    ],
    ['cold', f.cold?.length ? readmeCold(f.cold, f.note) : undefined],
    ['live', f.live ? readmeLive(f.live, f.note) : undefined],
  ]);
  update('docs/benchmarks.md', [
    ['routes', f.routesTable ? docsRoutes(f) : undefined],
    ['cold', f.cold?.length ? docsCold(f.cold, f.note) : undefined],
    ['live', f.live ? docsLive(f.live, f.note) : undefined],
  ]);
  return written;
}
