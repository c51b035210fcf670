// A function can fail; the runner cannot. In Lambda an uncaught exception or unhandled rejection
// ends that function's environment only; here every function runs in the runner's one process, where
// it would end all three APIs. So each function's init and invocations run in an AsyncLocalStorage
// scope naming the function (and the invocation): Node carries it into every callback, timer,
// event and promise the function's code starts (Node 24), and into the process's
// 'uncaughtException' and 'unhandledRejection' handlers. There the scope says whose error it is:
// that function's crash (its environment is dropped, its open request answered 502), never the
// runner's. An error without a scope is the runner's own: the owner's handler (npm start: stop
// everything), or, when nothing else listens, Node's default (print it, exit 1).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface FunctionScope {
  functionId: string;
  /** Told of an uncaught error of this function's code. */
  crashed(error: unknown): void;
}

const scope = new AsyncLocalStorage<FunctionScope>();
let installed = false;
let runnerError: ((error: unknown) => void) | undefined;

/** Runs `fn` (a function's init or invocation) in its scope. */
export const inFunction = <T>(s: FunctionScope, fn: () => T): T => scope.run(s, fn);

/** Where errors that are not a function's go (npm start stops everything). */
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
      const s = scope.getStore();
      if (s) return s.crashed(error);
      if (runnerError) return runnerError(error);
      // Someone else (a test framework) handles it; alone, do what Node does without handlers.
      if (process.listenerCount(event) > 1) return;
      console.error(error);
      process.exit(1);
    });
  }
}
