// The README is what a new user reads first: short enough to read (at most 250 lines), with the
// figures that follow from the code right. The sample start-up's "bundling N functions" (docs/local.md)
// is the number of functions template.yaml defines (npm start bundles each), so adding a function
// without updating it fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TARGETS } from '../../infra/bench/coldstart.ts';
import { PRICES, pricesLine, README_COST_HEAD, README_ROUTES } from '../../infra/bench/cost.ts';
import { block } from '../../infra/bench/report.ts';
import { listFunctions, ROOT } from '../../infra/local/template.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = () => read('README.md');

it('the README is at most 250 lines', () => {
  expect(readme().split('\n').length).toBeLessThanOrEqual(250);
});

it('the sample start-up bundles as many functions as template.yaml has', () => {
  const counts = [...read('docs/local.md').matchAll(/bundling (\d+) functions/g)].map((m) => Number(m[1]));
  expect(counts.length).toBeGreaterThan(0);
  expect(counts).toEqual(counts.map(() => listFunctions().length));
});

it('the README says which @hackmd/api to install on Node 20', () => {
  const pinned = JSON.parse(read('package.json')).devDependencies['@hackmd/api'];
  expect(readme()).toContain(`npm install @hackmd/api@${pinned} --engine-strict=false`);
});

it('the README explains what npm install prints and that install analytics are off', () => {
  const pkg = JSON.parse(read('package.json'));
  expect(pkg.scarfSettings).toEqual({ enabled: false });
  expect(pkg.allowScripts['@scarf/scarf']).toBe(false);
  for (const allowed of Object.keys(pkg.allowScripts).filter((name) => pkg.allowScripts[name]))
    expect(readme()).toContain(`\`${allowed}\``);
  expect(readme()).toContain('EBADENGINE');
  expect(readme()).toContain('"scarfSettings": {"enabled": false}');
});

/** A Markdown table's cells, row by row (the separator row left out). */
const cells = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|-/.test(l))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
const amount = (cell: string) => Number(cell.replace('$', ''));

it("the README's cost table is the bench's: its columns and routes, totals that add up, the dated prices", () => {
  const text = block(readme(), 'cost');
  expect(text, 'the README has the bench:cost block').toBeDefined();
  // The prices and their date are the ones the bench priced with (infra/bench/cost.ts).
  expect(text!.replace(/\s+/g, ' ')).toContain(pricesLine());
  expect(text).toContain(PRICES.date);
  const [head, ...rows] = cells(text!);
  expect(head).toEqual(README_COST_HEAD);
  expect(rows.map((r) => r[0])).toEqual(README_ROUTES.map((r) => `\`${r}\``));
  for (const [route, dynamo, gateway, lambda, logs, total, http] of rows) {
    expect(amount(gateway), route).toBeCloseTo(PRICES.restApiRequest * 1e6, 2);
    expect(amount(total), route).toBeCloseTo(
      amount(dynamo) + amount(gateway) + amount(lambda) + amount(logs),
      1,
    );
    // Behind an HTTP API only the gateway's price changes.
    expect(amount(total) - amount(http), route).toBeCloseTo(
      (PRICES.restApiRequest - PRICES.httpApiRequest) * 1e6,
      1,
    );
  }
  // The webhook pipeline per note write, in dollars, without and with a webhook.
  expect(text!.replace(/\s+/g, ' ')).toMatch(
    /\*\*\$\d+\.\d\d\*\* per million writes in a workspace without webhooks \(no invocation\), \*\*\$\d+\.\d\d\*\* with one/,
  );
});

it("the README's cold-start line says what the floor is and holds the target to it", () => {
  const text = block(readme(), 'cold')?.replace(/\s+/g, ' ');
  expect(text).toContain(
    'the fastest build of a handler that sends the same first-call requests with the raw SDK client',
  );
  expect(text).toContain(`target ≤ ${TARGETS.coldStart}×`);
  const [, within, total] = /(\d+) of (\d+) functions within it/.exec(text ?? '') ?? [];
  expect(Number(total)).toBe(listFunctions().length);
  expect(Number(within)).toBeLessThanOrEqual(Number(total));
});
