// npm start's watch mode: editing a handler's source makes the next invocation run the new code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Bundles } from '../../infra/local/bundles.ts';

const root = mkdtempSync(join(tmpdir(), 'tri-api-reload-'));
const bundles = new Bundles([{ id: 'Greeter', entry: 'greet.ts' }], { root });
afterAll(async () => { await bundles.stop(); rmSync(root, { recursive: true, force: true }); });

const source = (word: string) => `export const handler = async () => ({ statusCode: 200, body: ${JSON.stringify(word)} });\n`;

it('reloads a handler when its source changes', async () => {
  writeFileSync(join(root, 'greet.ts'), source('first'));
  await bundles.start(true);
  expect(await bundles.handler('Greeter')({}, {})).toEqual({ statusCode: 200, body: 'first' });
  const generation = bundles.generation;
  writeFileSync(join(root, 'greet.ts'), source('second'));
  const deadline = Date.now() + 10_000;
  while (bundles.generation === generation && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(await bundles.handler('Greeter')({}, {})).toEqual({ statusCode: 200, body: 'second' });
});
