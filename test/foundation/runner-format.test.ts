// The local runner runs what deploys: a function's own code is bundled with template.yaml's
// BuildProperties, byte for byte what `sam build`'s esbuild flags make of it, and loaded as Lambda's
// runtime loads a `.js` handler: a CommonJS module. Packages are the runner's shared copies, and a
// bundle's default and named imports of them mean what they mean in the deployed bundle.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { BUILD_PROPERTIES, ESBUILD, samEsbuildArgs } from '#infra/deploy/build.ts';
import { Bundles } from '#infra/local/bundles.ts';
import { ROOT } from '#infra/local/template.ts';

const run = promisify(execFile);
// Entry points inside the repository (so packages resolve as the functions' do), in a folder of their
// own that is removed after the run.
const scratch = mkdtempSync(join(ROOT, '.format-test-'));
const entry = (name: string) => relative(ROOT, join(scratch, name));
const bundles = new Bundles(
  [
    { id: 'Plain', entry: entry('plain.ts') },
    { id: 'Packages', entry: entry('packages.ts') },
  ],
  { buildDir: join(scratch, 'build') },
);
afterAll(async () => {
  await bundles.stop();
  rmSync(scratch, { recursive: true, force: true });
});

writeFileSync(
  join(scratch, 'plain.ts'),
  [
    'class Greeting { constructor(readonly word: string) {} }',
    "export const handler = async () => ({ commonJs: typeof require === 'function' && typeof module === 'object',",
    '  file: __filename, word: new Greeting(`hello`).word });',
  ].join('\n'),
);
writeFileSync(
  join(scratch, 'packages.ts'),
  [
    "import middy from '@middy/core';",
    "import * as v from 'valibot';",
    "import { GetItemCommand } from '@aws-sdk/client-dynamodb';",
    'export const handler = middy(async () => ({',
    "  valid: v.safeParse(v.string(), 'x').success,",
    "  command: new GetItemCommand({ TableName: 't', Key: {} }).constructor.name,",
    '}));',
  ].join('\n'),
);

it("bundles a function's code byte for byte as sam build does, and loads it as CommonJS", async () => {
  await bundles.start(false);
  const { handler } = await bundles.load('Plain');
  const answer = (await handler({}, {})) as { commonJs: boolean; file: string; word: string };
  expect(answer).toMatchObject({ commonJs: true, word: 'hello' });
  expect(answer.file).toMatch(/Plain-\d+\.js$/);

  const out = join(scratch, 'sam');
  await run(ESBUILD, samEsbuildArgs({ ...BUILD_PROPERTIES, EntryPoints: [entry('plain.ts')] }, out), {
    cwd: ROOT,
  });
  const withoutMapLine = (code: string) => code.replace(/\/\/# sourceMappingURL=.*\n?$/, '');
  const runner = readdirSync(bundles.outdir).find((f) => /^Plain-\d+\.js$/.test(f))!;
  expect(withoutMapLine(readFileSync(join(bundles.outdir, runner), 'utf8'))).toBe(
    withoutMapLine(readFileSync(join(out, 'plain.js'), 'utf8')),
  );
});

it("answers a bundle's package imports with the runner's one shared copy", async () => {
  const { handler } = await bundles.load('Packages');
  expect(await handler({}, {})).toEqual({ valid: true, command: 'GetItemCommand' });
  const code = readFileSync(
    join(bundles.outdir, readdirSync(bundles.outdir).find((f) => /^Packages-\d+\.js$/.test(f))!),
    'utf8',
  );
  // The packages are required by URL (shared), not bundled in.
  expect(code).toMatch(/require\("file:\/\/[^"]*@middy\/core/);
  expect(code.length).toBeLessThan(20_000);
});
