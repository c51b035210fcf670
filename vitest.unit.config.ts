import { defineConfig } from 'vitest/config';
import { wasmBinary } from './test/support/wasm-binary.ts';

// `npm run test:unit`: the domain against the in-memory adapters, the storage contracts on the
// in-memory side, the dependency rules and the line width. No global setup: no Java, no emulator, no runner.
export default defineConfig({
  plugins: [wasmBinary()],
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/contract/**/*.memory.test.ts',
      'test/architecture/dependency-rules.test.ts',
      'test/architecture/line-width.test.ts',
      'test/docs/**/*.test.ts',
    ],
    pool: 'threads',
    // The domain modules hold no state between tests: one module graph per worker is enough.
    isolate: false,
    maxWorkers: 2,
  },
});
