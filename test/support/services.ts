// The services a test project's global setup needs, started once per `npm test` however many
// projects ask for them: global setups of all projects run in vitest's main process, and the
// stack is kept on globalThis (each project loads this module in a module graph of its own).
// Each setup holds a reference; the last one to let go stops what was started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir, runningStack } from '../../infra/local/stack-file.ts';
import { attachLocalStack, type LocalStack, startLocalStack } from '../../infra/local/stack.ts';

/** Nothing listens here: a dynamo test that calls the runner fails at once instead of waiting. */
export const NO_RUNNER = 'http://127.0.0.1:9';

/**
 * What the `dynamo` setup set for want of a runner (its URLs): the runner's setup drops it before
 * it makes the functions' environment, where a caller's setting would win over the runner's own.
 */
export function forgetNoRunner(): void {
  for (const [key, value] of Object.entries(process.env))
    if (value?.includes(NO_RUNNER)) delete process.env[key];
}

interface Shared {
  stack: Promise<LocalStack>;
  /** Whether the stack is a table and bucket of ours on a running `npm start` (reusedStack()). */
  reused: boolean;
  scratch: string;
  users: number;
}
const KEY = Symbol.for('tri-api.test.services');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

/**
 * The DynamoDB Local and S3 emulator of a running `npm start` (its stack.json), unless
 * TEST_REUSE_STACK=0: a test run then creates a table and bucket of its own there instead of
 * starting Java again.
 */
function reusable() {
  if (process.env.TEST_REUSE_STACK === '0') return undefined;
  const found = runningStack(defaultDataDir());
  return found.running ? found.info : undefined;
}

/** DynamoDB Local (in memory) and the S3 emulator with the table and bucket; release() when done. */
export function acquireStack(): { stack: Promise<LocalStack>; scratch: string; release(): Promise<void> } {
  let shared = registry[KEY];
  if (!shared) {
    const scratch = mkdtempSync(join(tmpdir(), 'tri-api-test-'));
    const running = reusable();
    const stack = running ? attachLocalStack(running) : startLocalStack({ scratchDir: scratch });
    shared = registry[KEY] = { stack, scratch, reused: running !== undefined, users: 0 };
    // A failed start is not kept: the next setup tries again, and this one reports it.
    stack.catch(() => {
      if (registry[KEY] === shared) registry[KEY] = undefined;
      rmSync(scratch, { recursive: true, force: true });
    });
  }
  const held = shared;
  held.users++;
  let released = false;
  return {
    stack: held.stack,
    scratch: held.scratch,
    release: async () => {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (registry[KEY] === held) registry[KEY] = undefined;
      await held.stack.then((s) => s.stop()).catch(() => {});
      rmSync(held.scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
