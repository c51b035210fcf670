// npm run bench:compare -- --before b1.txt --before b2.txt --after a1.txt --after a2.txt
// Reads saved outputs of `npm run bench -- --skip-bundles` from two commits (run alternately on the
// same machine: before, after, before, after ...) and prints, per route, the median over the runs
// of each side's p50 and p99, the DynamoDB requests per call of each side, and after/before p50.
// A route only one side has is shown with "-" on the other.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { median, table } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string', multiple: true, default: [] },
    after: { type: 'string', multiple: true, default: [] },
  },
});

interface Run {
  p50: number;
  p99: number;
  requests: number;
}

/** Route label -> its row in each run, from the bench's "Routes" table. */
function readRuns(files: string[]): Map<string, Run[]> {
  const out = new Map<string, Run[]>();
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const head = lines.findIndex((l) => /^\| route\s/.test(l));
    if (head < 0) throw new Error(`${file}: no routes table`);
    const cols = lines[head].split('|').map((c) => c.trim());
    const at = (name: string) => cols.indexOf(name);
    for (const line of lines.slice(head + 2)) {
      if (!line.startsWith('|')) break;
      const c = line.split('|').map((x) => x.trim());
      if (c[at('result')] !== 'ok') throw new Error(`${file}: ${c[at('route')]} did not pass`);
      const run = { p50: +c[at('p50 ms')], p99: +c[at('p99 ms')], requests: +c[at('ddb req/call')] };
      out.set(c[at('route')], [...(out.get(c[at('route')]) ?? []), run]);
    }
  }
  return out;
}

const before = readRuns(args.before);
const after = readRuns(args.after);
const routes = [...new Set([...before.keys(), ...after.keys()])];
const ms = (runs: Run[] | undefined, k: 'p50' | 'p99') => (runs ? median(runs.map((r) => r[k])) : undefined);
const cell = (v: number | undefined, digits = 1) => (v === undefined ? '-' : v.toFixed(digits));

console.log(
  `before: ${args.before.length} run(s), after: ${args.after.length} run(s); median over the runs\n`,
);
console.log(
  table(
    ['route', 'before p50 / p99 ms', 'after p50 / p99 ms', 'after/before p50', 'ddb req before → after'],
    routes.map((route) => {
      const b = before.get(route);
      const a = after.get(route);
      const [b50, a50] = [ms(b, 'p50'), ms(a, 'p50')];
      return [
        `\`${route}\``,
        b ? `${cell(b50)} / ${cell(ms(b, 'p99'))}` : '-',
        a ? `${cell(a50)} / ${cell(ms(a, 'p99'))}` : '-',
        b50 && a50 ? (a50 / b50).toFixed(2) : '-',
        `${cell(b && median(b.map((r) => r.requests)), 2)} → ${cell(a && median(a.map((r) => r.requests)), 2)}`,
      ];
    }),
  ),
);
