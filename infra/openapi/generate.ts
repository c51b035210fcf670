// npm run openapi: writes openapi/<api>.json from each API's builder. A test checks the committed
// files equal what the builders produce.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/template.ts';
import { builders } from './index.ts';

for (const [name, build] of Object.entries(builders)) {
  const file = join(ROOT, 'openapi', `${name}.json`);
  writeFileSync(file, `${JSON.stringify(build(), null, 2)}\n`);
  console.log(`wrote ${file}`);
}
