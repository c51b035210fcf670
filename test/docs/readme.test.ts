// The README is what a new user reads first: short enough to read (at most 250 lines), with the
// figures that follow from the code right. The sample start-up's "bundling N functions" (docs/local.md)
// is the number of functions template.yaml defines (npm start bundles each), so adding a function
// without updating it fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
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
