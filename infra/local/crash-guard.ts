// A function can fail; the runner cannot. Every function runs in an environment of its own, a
// worker thread (environments.ts): an uncaught exception or unhandled rejection of its code ends
// that worker only (that function's crash: its environment is dropped, its open request answered
// 502), never reaching this process. An error that does reach this process's handlers is the
// runner's own: the owner's handler (npm start: stop everything), or, when nothing else listens,
// Node's default (print it, exit 1).
let installed = false;
let runnerError: ((error: unknown) => void) | undefined;

/** Where the runner's own errors go (npm start stops everything). */
export function onRunnerError(handler: (error: unknown) => void): void {
  runnerError = handler;
  installCrashGuard();
}

/** Installs the process handlers once per process. */
export function installCrashGuard(): void {
  if (installed) return;
  installed = true;
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      if (runnerError) return runnerError(error);
      // Someone else (a test framework) handles it; alone, do what Node does without handlers.
      if (process.listenerCount(event) > 1) return;
      console.error(error);
      process.exit(1);
    });
  }
}
