import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the domain against the in-memory adapters, and the storage contracts on the
// in-memory side. No global setup: no Java, no emulator, no runner.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.memory.test.ts'],
    pool: 'threads',
    maxWorkers: 2,
  },
});
