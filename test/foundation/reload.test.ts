// npm start's watch mode: saving a source file rebuilds the functions that include it, says so,
// and the next invocation runs the new code; a function never requested is never built. Every way
// editors save is heard, and so is every later save: in place, by an atomic rename of a temporary
// file over the original (vim, JetBrains IDEs), and by deleting and creating the file again.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildPropertiesFor } from '../../infra/deploy/build.ts';
import { Bundles } from '../../infra/local/bundles.ts';

const root = mkdtempSync(join(tmpdir(), 'tri-api-reload-'));
mkdirSync(join(root, 'functions'));
mkdirSync(join(root, 'lib'));
const lines: string[] = [];
const bundles = new Bundles(
  [
    { id: 'Greeter', entry: 'functions/greet.ts' },
    { id: 'Other', entry: 'functions/other.ts' },
    // An ES module function (the BuildProperties of those that run SQLite: .mjs, loaded with import()).
    {
      id: 'GreeterEsm',
      entry: 'functions/greet-esm.ts',
      metadata: { BuildProperties: buildPropertiesFor('functions/notes/search-notes.ts') },
    },
  ],
  { root, buildDir: join(root, 'build'), log: (l) => lines.push(l) },
);
afterAll(async () => {
  await bundles.stop();
  rmSync(root, { recursive: true, force: true });
});

const word = (w: string) => `export const word = ${JSON.stringify(w)};\n`;
writeFileSync(join(root, 'lib', 'word.ts'), word('first'));
writeFileSync(
  join(root, 'functions', 'greet.ts'),
  "import { word } from '../lib/word.ts';\nexport const handler = async () => ({ statusCode: 200, body: word });\n",
);
writeFileSync(
  join(root, 'functions', 'greet-esm.ts'),
  "import { word } from '../lib/word.ts';\nexport const handler = async () => ({ statusCode: 200, body: word + ' ' + typeof import.meta.url });\n",
);
writeFileSync(
  join(root, 'functions', 'other.ts'),
  'export const handler = async () => ({ statusCode: 204 });\n',
);

it('rebuilds what a saved file is part of, says so, and serves the new code within 5 s', async () => {
  await bundles.start(true);
  const first = await bundles.load('Greeter');
  expect(await first.handler({}, {})).toEqual({ statusCode: 200, body: 'first' });
  const esm = await bundles.load('GreeterEsm');
  expect(await esm.handler({}, {})).toEqual({ statusCode: 200, body: 'first string' });
  expect(readdirSync(bundles.outdir).filter((f) => f.startsWith('Other'))).toEqual([]);
  expect(readdirSync(bundles.outdir).some((f) => f.endsWith('.js.map'))).toBe(true);

  const generation = bundles.generation;
  const saved = Date.now();
  writeFileSync(join(root, 'lib', 'word.ts'), word('second'));
  while (bundles.generation === generation && Date.now() - saved < 5_000)
    await new Promise((r) => setTimeout(r, 25));
  expect(await (await bundles.load('Greeter')).handler({}, {})).toEqual({ statusCode: 200, body: 'second' });
  expect(await (await bundles.load('GreeterEsm')).handler({}, {})).toEqual({
    statusCode: 200,
    body: 'second string',
  });
  expect(Date.now() - saved).toBeLessThan(5_000);
  expect(lines.join('\n')).toMatch(/changed lib\/word\.ts: rebuilt Greeter, GreeterEsm in \d+ ms/);
});

/** Saves the scratch root's word module the given way; resolves with the word Greeter then answers (within 5 s). */
type Save = (file: string, text: string) => void | Promise<void>;
async function saved(style: Save, w: string): Promise<unknown> {
  const generation = bundles.generation;
  const started = Date.now();
  await style(join(root, 'lib', 'word.ts'), word(w));
  while (bundles.generation === generation && Date.now() - started < 5_000)
    await new Promise((r) => setTimeout(r, 25));
  return ((await (await bundles.load('Greeter')).handler({}, {})) as { body: string }).body;
}

const inPlace = (file: string, text: string) => writeFileSync(file, text);
const atomicRename = (file: string, text: string) => {
  const temp = `${file}.tmp~`;
  writeFileSync(temp, text);
  renameSync(temp, file);
};
const deleteAndCreate = async (file: string, text: string) => {
  unlinkSync(file);
  await new Promise((r) => setTimeout(r, 200));
  writeFileSync(file, text);
};

it.each([
  ['an atomic rename over the original', atomicRename],
  ['a delete, then the file created again', deleteAndCreate],
])('hears a save by %s, and every save after it', async (_name, style) => {
  const tag = Math.random().toString(36).slice(2, 8);
  expect(await saved(style as Save, `${tag}-1`)).toBe(`${tag}-1`);
  expect(await saved(inPlace, `${tag}-2`)).toBe(`${tag}-2`);
  expect(await saved(style as Save, `${tag}-3`)).toBe(`${tag}-3`);
  expect(await saved(atomicRename, `${tag}-4`)).toBe(`${tag}-4`);
  expect(await saved(inPlace, `${tag}-5`)).toBe(`${tag}-5`);
});

it('removes its bundles on stop', async () => {
  await bundles.stop();
  expect(existsSync(bundles.outdir)).toBe(false);
});
