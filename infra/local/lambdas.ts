// Lambda's phases for one invocation, kept apart as Lambda keeps them: build (sam build's part,
// once per function and change), init (loading the module, Lambda's 10 s init limit, reported on
// its own) and invoke (the function's Timeout from template.yaml, counted from the invoke's start).
// A slow build or init therefore never eats into the function's own deadline. A function's crash
// (an uncaught exception or unhandled rejection of its code, during init or after it answered) is
// its own (crash-guard.ts): that invocation, if still open, is a function error (502), and the
// function's environment is dropped, so the next request initialises it again, as in Lambda. So is
// the environment of an invocation that ran past its Timeout (abandoned: see run()).
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type DynamoMeter, metered } from '../../lib/data/metering.ts';
import { buildErrors, InitError, type Bundles, type Loaded } from './bundles.ts';
import { type FunctionScope, inFunction, installCrashGuard } from './crash-guard.ts';
import { lambdaContext } from './event.ts';
import { literalFunctionEnv, withFunctionEnv } from './function-env.ts';
import type { CompiledRoute } from './routes.ts';
import type { Template } from './template.ts';

/** Lambda's limit on the init phase. */
export const INIT_LIMIT_MS = 10_000;

/** How long an init waits for the invocations in flight to end before it runs anyway. */
const INIT_WAIT_MS = 500;

/**
 * Lambda's limit on a synchronous invocation's payload, the event and the result alike, as JSON
 * ("6 MB"; Lambda's error names the exact figure: "Response payload size exceeded maximum allowed
 * payload size (6291556 bytes)").
 */
export const PAYLOAD_LIMIT_BYTES = 6_291_556;

/** The size Lambda counts for an event or a result: its JSON. */
export const payloadBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

export type Outcome =
  | { kind: 'ok'; result: APIGatewayProxyResult; meter: DynamoMeter }
  /** The function could not be built (the runner's stand-in for a failed deployment): 503. */
  | { kind: 'failure'; reason: string }
  /** A function error (init or handler threw, a crash, a malformed result): API Gateway's 502. */
  | { kind: 'error'; reason: string; crash?: true }
  | { kind: 'timeout'; timeoutMs: number };

interface Limits {
  timeoutMs: number;
  memoryMb: number;
}

export class Lambdas {
  private readonly env: Map<string, Record<string, string>>;
  private readonly limits = new Map<string, Limits>();
  private running = 0;
  private initsPending = 0;
  private initQueue = Promise.resolve();
  private readonly idle: Array<() => void> = [];

  constructor(
    template: Template,
    private readonly bundles: Bundles,
    private readonly log: (line: string) => void,
  ) {
    installCrashGuard();
    this.env = literalFunctionEnv(template);
    const globals = template.Globals?.Function ?? {};
    for (const [id, res] of Object.entries(template.Resources)) {
      if (res.Type !== 'AWS::Serverless::Function') continue;
      const p = res.Properties ?? {};
      this.limits.set(id, {
        timeoutMs: Number(p.Timeout ?? globals.Timeout ?? 3) * 1000,
        memoryMb: Number(p.MemorySize ?? globals.MemorySize ?? 128),
      });
    }
  }

  /** An event source's invocation (stream, queue): the handler's result as it is. */
  invokeEvent(functionId: string, handler: string, event: unknown): Promise<Outcome> {
    return this.invoke({ functionId, handler } as CompiledRoute, event as APIGatewayProxyEvent, true);
  }

  async invoke(route: CompiledRoute, event: APIGatewayProxyEvent, anyResult = false): Promise<Outcome> {
    const id = route.functionId;
    let crashOutcome: Outcome | undefined;
    let crash: (outcome: Outcome) => void = () => {};
    const crashed = new Promise<Outcome>((resolve) => {
      crash = (outcome) => {
        crashOutcome ??= outcome;
        resolve(outcome);
      };
    });
    let answered = false;
    const scope: FunctionScope = {
      functionId: id,
      crashed: (error) => {
        const when = answered ? 'after it answered' : 'while it ran';
        const reason = `${id} crashed ${when}: ${(error as Error)?.stack ?? String(error)}`;
        console.error(
          `[runner] ${reason}\n[runner] ${id}: environment discarded; the next request initialises it again`,
        );
        this.log(`${id} crashed ${when}: environment discarded`);
        this.bundles.discard(id);
        crash({ kind: 'error', reason, crash: true });
      },
    };
    let loaded;
    let release = () => {};
    try {
      loaded = await this.bundles.load(
        id,
        route.handler,
        async () => {
          release = await this.initTurn();
        },
        (fn) => inFunction(scope, fn),
      );
      // Lambda's runtime asks for the first event only after init, on a later turn of the event
      // loop: what init left failing (a rejected promise, an error event) fails the init.
      if (loaded.initMs > 0) await new Promise((resolve) => setImmediate(resolve));
    } catch (err) {
      if (err instanceof InitError) return { kind: 'error', reason: err.message };
      return { kind: 'failure', reason: `${id} could not start: ${buildErrors(err)}` };
    } finally {
      release();
    }
    if (crashOutcome) return crashOutcome;
    while (this.initsPending > 0) await this.initQueue;
    this.running += 1;
    try {
      return await Promise.race([inFunction(scope, () => this.run(id, loaded, event, anyResult)), crashed]);
    } finally {
      answered = true;
      this.running -= 1;
      if (this.running === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  /**
   * Loading a module blocks the one event loop all functions share here (in Lambda each has its
   * own), which would eat into the deadlines of invocations in flight. So an init waits until no
   * invocation runs (for at most INIT_WAIT_MS), inits go one at a time, and invocations wait for a
   * pending init.
   */
  private async initTurn(): Promise<() => void> {
    const previous = this.initQueue;
    let done!: () => void;
    this.initQueue = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.initsPending += 1;
    await previous;
    // At most INIT_WAIT_MS: invocations that never end (a delivery to a hanging receiver, one past
    // its Timeout) must not keep every later invocation waiting behind this init.
    const waitUntil = performance.now() + INIT_WAIT_MS;
    while (this.running > 0 && performance.now() < waitUntil)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(0, waitUntil - performance.now()));
        this.idle.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    return () => {
      this.initsPending -= 1;
      done();
    };
  }

  private async run(
    id: string,
    loaded: Loaded,
    event: APIGatewayProxyEvent,
    anyResult: boolean,
  ): Promise<Outcome> {
    if (loaded.buildMs > 0) this.log(`${id}: built in ${ms(loaded.buildMs)}, init ${ms(loaded.initMs)}`);
    if (loaded.initMs > INIT_LIMIT_MS) {
      this.log(`${id}: init took ${ms(loaded.initMs)}, over Lambda's ${INIT_LIMIT_MS / 1000} s init limit`);
    }
    const { timeoutMs, memoryMb } = this.limits.get(id) ?? { timeoutMs: 3000, memoryMb: 128 };
    const context = lambdaContext(id, timeoutMs, memoryMb);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout', timeoutMs }), timeoutMs);
    });
    const run = withFunctionEnv(this.env.get(id) ?? {}, () =>
      metered(() => loaded.handler(event, context) as Promise<APIGatewayProxyResult>),
    )
      .then(
        ({ result, meter }): Outcome =>
          anyResult || (result && typeof result.statusCode === 'number')
            ? { kind: 'ok', result, meter }
            : { kind: 'error', reason: `${id} returned a malformed Lambda proxy response` },
      )
      .catch((err): Outcome => ({ kind: 'error', reason: `${id} failed: ${(err as Error).stack ?? err}` }));
    try {
      const outcome = await Promise.race([run, timedOut]);
      if (outcome.kind === 'timeout') {
        // Lambda stops the runtime of an invocation that ran past its Timeout and resets the
        // environment: the next invocation initialises it again. Here its code cannot be stopped
        // (one process), but it is abandoned: nothing waits for it, no new invocation reaches it.
        this.log(`${id} timed out after ${ms(timeoutMs)}: environment discarded`);
        this.bundles.discard(id);
      }
      return outcome;
    } finally {
      clearTimeout(timer);
    }
  }
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
