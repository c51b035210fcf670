// The committed openapi/bank.json is what the builder produces from the valibot schemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBankDocument } from '../../infra/openapi/bank.ts';
import { ROOT } from '../../infra/local/template.ts';

describe('openapi/bank.json', () => {
  it('equals the output of infra/openapi/bank.ts (run npm run openapi after changing schemas)', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'openapi', 'bank.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(buildBankDocument())),
    );
  });
});
