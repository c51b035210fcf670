// A quiet test run: the functions' own output (their JSON logs and metric lines, and what the
// runner says about an invocation: a timeout, a crash) is kept, not printed, and shown with the test
// that failed. The runner of the global setup (another process) appends each line to a file
// (keepFunctionOutput, TRI_API_TEST_FUNCTION_LOG); each test worker (setupFiles: this file) notes
// when a test starts and, if the test fails, prints the lines written since (every function's: the
// runner is shared by the test files running at that moment). Handlers a test calls in its own
// process write to stdout directly (lib/http/logger.ts, the webhook metrics): kept the same way
// for the test's duration. Console output of tests themselves: vitest's `silent: 'passed-only'`.
// TRI_API_TEST_SHOW_LOGS=1 prints everything as it comes, as npm start does.
import { beforeEach } from 'vitest';
import { functionLinesSince, showLogs } from './function-log-file.ts';

/** Keeps what this process writes to stdout and stderr directly until the returned function is called. */
function keepRawOutput(): { lines: string[]; stop(): void } {
  const kept: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((s) => s.write);
  for (const stream of streams)
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      kept.push(String(chunk).replace(/\n$/, ''));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
  return {
    lines: kept,
    stop: () => {
      for (const [i, s] of streams.entries()) s.write = writes[i];
    },
  };
}

if (!showLogs())
  beforeEach((ctx) => {
    const since = Date.now();
    const raw = keepRawOutput();
    ctx.onTestFailed(async () => {
      raw.stop();
      // The runner's lines travel through a worker's stdout and another process: a moment to land.
      await new Promise((r) => setTimeout(r, 200));
      const lines = [...raw.lines, ...functionLinesSince(since)];
      if (lines.length)
        console.error(`function logs while this test ran (${lines.length} lines):\n${lines.join('\n')}`);
    });
    return () => raw.stop();
  });
