// Lambda's phases for one invocation, kept apart as Lambda keeps them: build (sam build's part,
// once per function and change), init (loading the module in a new environment, Lambda's 10 s init
// limit, reported on its own) and invoke (the function's Timeout from template.yaml, counted from
// the invoke's start). A slow build or init therefore never eats into the function's own deadline.
// Each environment is a worker thread (environments.ts) with the function's own process.env, a heap
// limit from its MemorySize and its own event loop; it handles one invocation at a time, as in
// Lambda: concurrent requests to one function get more environments (up to MAX_CONCURRENCY, then
// they wait for one), and idle ones are reused, least recently used ended beyond maxWarmEnvironments(). A
// function's crash (an uncaught exception or unhandled rejection of its code, during init or after
// it answered, or its heap exhausted) ends its environment only: that invocation, if still open, is
// a function error (502), and the next request initialises a new environment, as in Lambda. An
// invocation past its Timeout is ended whatever it is doing (a synchronous loop included: the
// worker is terminated) and answered with the timeout outcome; its environment is gone too.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { installedBillerModule } from '../../lib/data/metering.ts';
import { buildErrors, type Bundles, sharedPackageUrls } from './bundles.ts';
import {
  Environment,
  type FunctionOutput,
  INIT_LIMIT_MS,
  type Outcome,
  printFunctionOutput,
  Spares,
} from './environments.ts';
import { literalFunctionEnv } from './function-env.ts';
import type { CompiledRoute } from './routes.ts';
import type { Template } from './template.ts';

export { INIT_LIMIT_MS, type Outcome } from './environments.ts';

/**
 * Lambda's limit on a synchronous invocation's payload, the event and the result alike, as JSON
 * ("6 MB"; Lambda's error names the exact figure: "Response payload size exceeded maximum allowed
 * payload size (6291556 bytes)").
 */
export const PAYLOAD_LIMIT_BYTES = 6_291_556;

/** The size Lambda counts for an event or a result: its JSON. */
export const payloadBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

interface Limits {
  timeoutMs: number;
  memoryMb: number;
}

interface Pool {
  all: Set<Environment>;
  /** Environments in their init phase. */
  starting: number;
  /** Requests waiting for an environment (the function is at MAX_CONCURRENCY). */
  waiting: Array<() => void>;
}

/** Most environments of one function at once (Lambda's reserved concurrency, kept small here). */
export const MAX_CONCURRENCY = Number(process.env.LOCAL_FUNCTION_CONCURRENCY ?? 4);

/** How often a request waiting for an environment looks again (a spare may be ready). */
const WAIT_POLL_MS = 50;

/**
 * Most idle environments kept warm, all functions together; beyond it the least recently used are
 * ended, as Lambda reclaims idle environments, and start cold again on their next request (about
 * 50 ms: the bundle stays built). Each holds its own copy of the packages it loaded, ~55 MB (docs/benchmarks.md).
 */
export const maxWarmEnvironments = (): number => Number(process.env.LOCAL_WARM_FUNCTIONS ?? 8);

export class Lambdas {
  private readonly env: Map<string, Record<string, string>>;
  private readonly limits = new Map<string, Limits>();
  private readonly pools = new Map<string, Pool>();
  /** Idle environments of every function, least recently used first. */
  private readonly idle = new Set<Environment>();
  private readonly spares = new Spares(sharedPackageUrls);
  private closed = false;

  constructor(
    template: Template,
    private readonly bundles: Bundles,
    private readonly log: (line: string) => void,
    private readonly output: FunctionOutput = printFunctionOutput,
    private readonly maxWarm = maxWarmEnvironments(),
    /** Each function gets this many times its Timeout (RunnerOptions.timeoutScale; 1: as Lambda). */
    timeoutScale = 1,
  ) {
    this.env = literalFunctionEnv(template);
    const globals = template.Globals?.Function ?? {};
    for (const [id, res] of Object.entries(template.Resources)) {
      if (res.Type !== 'AWS::Serverless::Function') continue;
      const p = res.Properties ?? {};
      this.limits.set(id, {
        timeoutMs: Number(p.Timeout ?? globals.Timeout ?? 3) * 1000 * timeoutScale,
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
    const started = await this.acquire(id, route.handler);
    if ('kind' in started) return started;
    const environment = started;
    const { timeoutMs } = this.limitsOf(id);
    const outcome = await environment.invoke(event, timeoutMs, await this.billerModule());
    if (outcome.kind === 'timeout') {
      this.log(`${id} timed out after ${ms(timeoutMs)}: environment discarded`);
    }
    this.release(environment);
    if (outcome.kind !== 'ok' || anyResult || typeof outcome.result?.statusCode === 'number') return outcome;
    return { kind: 'error', reason: `${id} returned a malformed Lambda proxy response` };
  }

  /** Starts the spare environments (npm start, once the functions are built): cold starts are quick from then on. */
  warm(): Promise<void> {
    const sizes = [...this.limits.values()].map((l) => l.memoryMb);
    const count = (m: number) => sizes.filter((n) => n === m).length;
    const common = sizes.reduce((a, b) => (count(b) > count(a) ? b : a), sizes[0]);
    // The most common MemorySize; the others get theirs on first use.
    return common ? this.spares.fill(common) : Promise.resolve();
  }

  /** What the runner says about a function's invocation goes with the function's own output (stderr). */
  report(functionId: string, text: string): void {
    for (const line of text.split('\n')) this.output({ functionId, stream: 'stderr', text: line });
  }

  /** Ends every environment (the runner stops). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.pools.values()].flatMap((p) => [...p.all]);
    for (const pool of this.pools.values()) for (const wake of pool.waiting.splice(0)) wake();
    await Promise.all([...all.map((e) => e.end()), this.spares.close()]);
  }

  private limitsOf(id: string): Limits {
    return this.limits.get(id) ?? { timeoutMs: 3000, memoryMb: 128 };
  }

  private pool(id: string): Pool {
    let pool = this.pools.get(id);
    if (!pool) this.pools.set(id, (pool = { all: new Set(), starting: 0, waiting: [] }));
    return pool;
  }

  /** An idle environment of the function's current bundle, a new one, or (at the cap) the next freed. */
  private async acquire(id: string, handler: string): Promise<Environment | Outcome> {
    const pool = this.pool(id);
    for (;;) {
      if (this.closed) return { kind: 'failure', reason: 'the runner is stopping' };
      let built: { file: string; buildMs: number };
      try {
        built = await this.bundles.bundle(id);
      } catch (err) {
        return { kind: 'failure', reason: `${id} could not start: ${buildErrors(err)}` };
      }
      for (const e of pool.all) {
        if (e.ended) this.drop(e);
        if (e.busy || e.ended) continue;
        if (e.file !== built.file) {
          this.drop(e); // built again since (watch mode): the next request runs the new code
          continue;
        }
        this.idle.delete(e);
        e.busy = true;
        return e;
      }
      // One cold start at a time per function: a request that comes while one initialises waits for
      // it (or for a busy environment to be free) instead of loading yet another copy beside it,
      // which on a small machine would slow every one of them down.
      // The first environment takes a spare, waiting for one still importing if need be (sooner
      // than a new worker); another one beside busy ones only a ready spare: else this request waits
      // for an environment to be free or a spare to be ready, whichever comes first.
      if (pool.all.size < MAX_CONCURRENCY && pool.starting === 0) {
        const { memoryMb } = this.limitsOf(id);
        if (pool.all.size === 0) return this.start(id, handler, built, await this.spares.take(memoryMb));
        const spare = this.spares.takeReady(memoryMb);
        if (spare) return this.start(id, handler, built, spare);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          const i = pool.waiting.indexOf(wake);
          if (i >= 0) pool.waiting.splice(i, 1);
          resolve();
        };
        const timer = setTimeout(wake, WAIT_POLL_MS);
        pool.waiting.push(wake);
      });
    }
  }

  /** A new environment: its init phase, then it is this invocation's. */
  private async start(
    id: string,
    handler: string,
    built: { file: string; buildMs: number },
    spare: Worker | undefined,
  ): Promise<Environment | Outcome> {
    const { timeoutMs, memoryMb } = this.limitsOf(id);
    const environment = new Environment(
      {
        functionId: id,
        file: built.file,
        exportName: handler,
        env: { ...process.env, ...this.env.get(id) } as Record<string, string>,
        timeoutMs,
        memoryMb,
        output: this.output,
        crashed: (e, error, when) => this.crashed(e, error, when),
      },
      spare,
    );
    environment.busy = true;
    const pool = this.pool(id);
    pool.all.add(environment);
    pool.starting += 1;
    const init = await environment.init().finally(() => {
      pool.starting -= 1;
    });
    // Another request waiting may start the next environment now (this one is this request's).
    if (init.kind === 'ready') pool.waiting.shift()?.();
    if (init.kind !== 'ready') {
      this.release(environment);
      return init;
    }
    this.log(`${id}: built in ${ms(built.buildMs)}, init ${ms(init.initMs)}`);
    if (init.initMs > INIT_LIMIT_MS)
      this.log(`${id}: init took ${ms(init.initMs)}, over Lambda's ${INIT_LIMIT_MS / 1000} s init limit`);
    return environment;
  }

  private crashed(environment: Environment, error: unknown, when: string): void {
    const id = environment.functionId;
    const reason = `${id} crashed ${when}: ${(error as Error)?.stack ?? String(error)}`;
    this.report(id, `[runner] ${reason}`);
    this.report(id, `[runner] ${id}: environment discarded; the next request initialises it again`);
    this.log(`${id} crashed ${when}: environment discarded`);
    this.drop(environment);
  }

  /** An environment is free again (or gone): the next waiting request may have it. */
  private release(environment: Environment): void {
    environment.busy = false;
    const pool = this.pool(environment.functionId);
    if (environment.ended) pool.all.delete(environment);
    else {
      this.idle.delete(environment);
      this.idle.add(environment);
      for (const cold of [...this.idle].slice(0, Math.max(0, this.idle.size - this.maxWarm))) this.drop(cold);
    }
    pool.waiting.shift()?.();
  }

  private drop(environment: Environment): void {
    this.idle.delete(environment);
    this.pool(environment.functionId).all.delete(environment);
    void environment.end();
  }

  private billerBundle?: Promise<string>;
  /** While the bench (or a test) prices requests: its biller, bundled for the environments. */
  private async billerModule(): Promise<string | undefined> {
    const module = installedBillerModule();
    if (!module) return undefined;
    this.billerBundle ??= this.bundles.bundleModule(module, 'biller');
    return pathToFileURL(await this.billerBundle).href;
  }
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
