// README figures that follow from the code: the sample start-up's "bundling N functions" is the
// number of functions template.yaml defines (npm start bundles each), so adding a function without
// updating the README fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { listFunctions, ROOT } from '../../infra/local/template.ts';

const readme = () => readFileSync(join(ROOT, 'README.md'), 'utf8');

it("the README's sample start-up bundles as many functions as template.yaml has", () => {
  const counts = [...readme().matchAll(/bundling (\d+) functions/g)].map((m) => Number(m[1]));
  expect(counts.length).toBeGreaterThan(0);
  expect(counts).toEqual(counts.map(() => listFunctions().length));
});

it('the README says which @hackmd/api to install on Node 20', () => {
  const pinned = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies['@hackmd/api'];
  expect(readme()).toContain(`npm install @hackmd/api@${pinned} --engine-strict=false`);
});
