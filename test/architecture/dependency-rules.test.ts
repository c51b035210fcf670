// The rules of docs/architecture.md fail `npm run lint` when broken: run on a fixture tree that
// breaks each one (test/fixtures/architecture), dependency-cruiser reports every break, and nothing else.
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs');

describe('dependency rules', () => {
  it(
    'reports the domain importing HTTP, lib/http an API, a handler an adapter, a cycle, a Notes feature ' +
      "using another feature's adapters, the Notes kernel a feature or the wiring, and a feature's " +
      'wiring the Notes composition root',
    async () => {
      const result = await cruise(['lib', 'functions'], {
        ...config.options,
        baseDir: 'test/fixtures/architecture',
        validate: true,
        ruleSet: { forbidden: config.forbidden },
        tsConfig: undefined,
        tsPreCompilationDeps: true,
      });
      const output = result.output as {
        summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
      };
      const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
      expect(found).toEqual([
        'domain-without-http-or-adapters: lib/bank/transfers.ts -> lib/http/api.ts',
        'domain-without-http-or-adapters: lib/notes/kernel/present.ts -> lib/notes/folders/adapters/dynamo-folders.ts',
        'domain-without-http-or-adapters: lib/notes/search/service.ts -> lib/notes/search/http.ts',
        'features-never-import-the-root: lib/notes/folders/wiring.ts -> lib/notes/wiring.ts',
        'features-never-import-the-root: lib/notes/kernel/http/glue.ts -> lib/notes/wiring.ts',
        'features-share-only-the-kernel-adapters: lib/notes/trash/adapters/dynamo-trash.ts -> lib/notes/folders/adapters/dynamo-folders.ts',
        'http-knows-no-api: lib/http/api.ts -> lib/bank/wiring.ts',
        'kernel-knows-no-feature: lib/notes/kernel/http/glue.ts -> lib/notes/wiring.ts',
        'kernel-knows-no-feature: lib/notes/kernel/present.ts -> lib/notes/folders/adapters/dynamo-folders.ts',
        'kernel-knows-no-feature: lib/notes/kernel/present.ts -> lib/notes/folders/folders.ts',
        'no-circular: lib/bank/mfa.ts -> lib/bank/transfers.ts',
        'only-wiring-imports-adapters: functions/bank/handler.ts -> lib/bank/adapters/dynamo-transfers.ts',
        'only-wiring-imports-adapters: lib/notes/kernel/present.ts -> lib/notes/folders/adapters/dynamo-folders.ts',
      ]);
    },
  );
});
