// One Lambda execution environment of the local runner: a worker thread (function-worker.mjs) that
// loads one function's bundle with the function's own process.env and a heap limit from its
// MemorySize, then runs one invocation at a time. Its code runs on its own event loop, so a
// function computing for seconds never stalls the runner or another function, and the runner can
// end it at any moment (terminate(): at its Timeout, or when it crashed). Its stdout and stderr (the
// function's logs) go, line by line, to a FunctionOutput: npm start prints them; the test run keeps
// them for the test that fails (test/support/function-logs.ts).
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { DynamoMeter } from '../../lib/data/metering.ts';
import { ROOT } from './template.ts';

const WORKER = join(ROOT, 'infra', 'local', 'function-worker.mjs');

/**
 * The young generation of each environment's heap. V8 sizes it from the heap limit (up to 3 × 16 MB
 * semi-spaces for a 512 MB heap) and keeps it resident once used: measured by `npm run soak`, that
 * made each environment ~80 MB instead of ~30 MB (SOAK_REQUESTS=100: 2,055 MB resident; with 4 MB,
 * 1,002 MB). Short-lived objects are collected sooner; nothing a function keeps is limited by it.
 */
export const YOUNG_GENERATION_MB = 4;

/** Lambda's limit on the init phase. */
export const INIT_LIMIT_MS = 10_000;

export type Outcome =
  | { kind: 'ok'; result: APIGatewayProxyResult; meter: DynamoMeter }
  /** The function could not be built (the runner's stand-in for a failed deployment): 503. */
  | { kind: 'failure'; reason: string }
  /** A function error (init or handler threw, a crash, a malformed result): API Gateway's 502. */
  | { kind: 'error'; reason: string; crash?: true }
  | { kind: 'timeout'; timeoutMs: number };

/** One line a function wrote to stdout or stderr. */
export interface FunctionLine {
  functionId: string;
  stream: 'stdout' | 'stderr';
  text: string;
}
export type FunctionOutput = (line: FunctionLine) => void;

/** npm start's: the functions' lines on the runner's own stdout and stderr, as they come. */
export const printFunctionOutput: FunctionOutput = ({ stream, text }) => {
  process[stream].write(`${text}\n`);
};

export interface EnvironmentOptions {
  functionId: string;
  file: string;
  exportName: string;
  env: Record<string, string>;
  timeoutMs: number;
  memoryMb: number;
  output: FunctionOutput;
  /** Told of an uncaught error of the function's code (the environment is over). */
  crashed(environment: Environment, error: unknown, when: 'while it ran' | 'after it answered'): void;
}

type Message =
  | { type: 'ready'; initMs: number }
  | { type: 'init-error'; error: unknown }
  | { type: 'started' }
  | { type: 'result'; json: string; meter: DynamoMeter }
  | { type: 'failed'; error: string };

/** A settled phase (init or invoke) of the environment. */
type Waiter = (m: Message | { type: 'crash'; error: unknown } | { type: 'exit'; code: number }) => void;

/**
 * Workers started ahead of need, with the packages the bundles share already imported (what makes a
 * cold start slow: hundreds of module files; in Lambda each bundle holds its packages, and Lambda's
 * runtime is up before the function's init). A new environment takes one whose heap limit fits,
 * so its init is its own bundle's load; another spare is started in its place.
 */
export class Spares {
  private readonly ready = new Map<number, Worker[]>();
  /** Spares still importing, by heap limit: resolve with the worker once it is ready. */
  private readonly starting = new Map<number, Array<Promise<Worker | undefined>>>();
  /** Every spare started and not taken yet. */
  private readonly untaken = new Set<Worker>();
  private closed = false;

  constructor(
    private readonly preload: () => string[],
    private readonly perSize = Number(process.env.LOCAL_SPARE_ENVIRONMENTS ?? 1),
  ) {}

  /**
   * A spare with this heap limit: a ready one, else the one furthest along (it started before this
   * request, so it is ready sooner than a new worker would be); undefined if none. Refilled either way.
   */
  async take(memoryMb: number): Promise<Worker | undefined> {
    const ready = this.ready.get(memoryMb) ?? [];
    const spare = ready.shift();
    const pending = spare ? undefined : this.starting.get(memoryMb)?.shift();
    void this.fill(memoryMb);
    const taken = spare ?? (await pending);
    if (taken) this.untaken.delete(taken);
    return this.closed ? undefined : taken;
  }

  /** A ready spare with this heap limit, if there is one (refilled either way). */
  takeReady(memoryMb: number): Worker | undefined {
    const spare = this.ready.get(memoryMb)?.shift();
    if (spare) this.untaken.delete(spare);
    void this.fill(memoryMb);
    return this.closed ? undefined : spare;
  }

  /** Starts spares with this heap limit until `perSize` are ready or on their way; resolves when they are ready. */
  fill(memoryMb: number): Promise<void> {
    const ready = this.ready.get(memoryMb) ?? [];
    const starting = this.starting.get(memoryMb) ?? [];
    this.ready.set(memoryMb, ready);
    this.starting.set(memoryMb, starting);
    while (!this.closed && ready.length + starting.length < this.perSize) {
      const worker = startWorker({ spare: true, preload: this.preload() }, process.env, memoryMb);
      worker.unref();
      this.untaken.add(worker);
      const started: Promise<Worker | undefined> = new Promise((resolve) => {
        worker.once('message', () => resolve(worker));
        worker.once('error', () => resolve(undefined));
      });
      starting.push(started);
      void started.then((w) => {
        const i = starting.indexOf(started);
        if (i < 0) return; // taken while starting
        starting.splice(i, 1);
        if (w && this.closed) void w.terminate();
        else if (w) ready.push(w);
      });
    }
    return Promise.all(starting).then(() => {});
  }

  /** Ends every spare not taken, ready or still importing, at once. */
  async close(): Promise<void> {
    this.closed = true;
    this.ready.clear();
    this.starting.clear();
    const all = [...this.untaken];
    this.untaken.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }
}

const startWorker = (workerData: unknown, env: NodeJS.ProcessEnv, memoryMb: number): Worker =>
  new Worker(WORKER, {
    workerData,
    env,
    // Plain Node, as Lambda's runtime: none of the host's flags (tsx's or vitest's loader hooks,
    // which would run on every module the function loads, and their signal handling).
    execArgv: [],
    // Lambda's MemorySize bounds the function's heap (a function that exhausts it crashes).
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    stdout: true,
    stderr: true,
  });

export class Environment {
  readonly functionId: string;
  readonly file: string;
  busy = false;
  ended = false;
  private readonly worker: Worker;
  private waiter?: Waiter;
  /** An init or invocation is under way: a crash now is its crash, even between two of its messages. */
  private open = false;
  private readonly inbox: Array<Parameters<Waiter>[0]> = [];

  /** A new environment: in `spare` (Spares) if given, else in a worker of its own. */
  constructor(
    private readonly o: EnvironmentOptions,
    spare?: Worker,
  ) {
    this.functionId = o.functionId;
    this.file = o.file;
    const assignment = {
      functionId: o.functionId,
      file: o.file,
      exportName: o.exportName,
      timeoutMs: o.timeoutMs,
      memoryMb: o.memoryMb,
    };
    if (spare) spare.postMessage({ ...assignment, env: o.env });
    this.worker = spare ?? startWorker(assignment, o.env, o.memoryMb);
    this.worker.ref();
    lines(this.worker.stdout, (text) => o.output({ functionId: o.functionId, stream: 'stdout', text }));
    lines(this.worker.stderr, (text) => o.output({ functionId: o.functionId, stream: 'stderr', text }));
    this.worker.on('message', (m: Message) => this.settle(m));
    this.worker.on('error', (error) => {
      // A crash of an open invocation (or init) is told by the one waiting for it; this is the rest.
      if (!this.open) this.o.crashed(this, error, 'after it answered');
      this.settle({ type: 'crash', error });
      this.ended = true;
    });
    this.worker.on('exit', (code) => {
      this.settle({ type: 'exit', code });
      this.ended = true;
    });
  }

  /** The init phase: the bundle loaded, or why not (an init error, a crash: 502). */
  async init(): Promise<{ kind: 'ready'; initMs: number } | Outcome> {
    return this.whileOpen(() => this.initPhase());
  }

  /** Runs an init or invocation with `open` set throughout (a crash meanwhile is its crash). */
  private async whileOpen<T>(phase: () => Promise<T>): Promise<T> {
    this.open = true;
    try {
      return await phase();
    } finally {
      this.open = false;
    }
  }

  private async initPhase(): Promise<{ kind: 'ready'; initMs: number } | Outcome> {
    const id = this.functionId;
    // An init that never ends: Lambda retries it within the invocation, so at most both limits.
    const m = await this.next(INIT_LIMIT_MS + this.o.timeoutMs);
    if (m.type === 'ready') return { kind: 'ready', initMs: m.initMs };
    void this.end();
    if (m.type === 'init-error')
      return { kind: 'error', reason: `${id} failed during init: ${stackOf(m.error)}` };
    if (m.type === 'crash') return this.crash(m.error);
    if (m.type === 'timeout') return { kind: 'timeout', timeoutMs: INIT_LIMIT_MS + this.o.timeoutMs };
    return { kind: 'error', reason: `${id} exited during init` };
  }

  /** One invocation, ended (the worker terminated) at the function's Timeout. */
  async invoke(event: unknown, timeoutMs: number, biller?: string): Promise<Outcome> {
    return this.whileOpen(() => this.invocation(event, timeoutMs, biller));
  }

  private async invocation(event: unknown, timeoutMs: number, biller?: string): Promise<Outcome> {
    const id = this.functionId;
    this.worker.postMessage({ event, biller });
    // The Timeout counts from the invocation's start in the environment (as the deadline its
    // context reports); an environment that never starts it is ended at the Timeout all the same.
    let m = await this.next(timeoutMs);
    if (m.type === 'started') m = await this.next(timeoutMs);
    if (m.type === 'result') return { kind: 'ok', result: JSON.parse(m.json), meter: m.meter };
    if (m.type === 'failed') return { kind: 'error', reason: `${id} failed: ${m.error}` };
    if (m.type === 'crash') return this.crash(m.error);
    void this.end();
    if (m.type === 'timeout') return { kind: 'timeout', timeoutMs };
    return { kind: 'error', reason: `${id} exited while it ran (${JSON.stringify(m)})` };
  }

  /** Ends the environment, whatever it is doing. */
  async end(): Promise<void> {
    this.ended = true;
    await this.worker.terminate();
  }

  private crash(error: unknown): Outcome {
    this.o.crashed(this, error, 'while it ran');
    return {
      kind: 'error',
      reason: `${this.functionId} crashed while it ran: ${stackOf(error)}`,
      crash: true,
    };
  }

  private next(timeoutMs: number): Promise<Parameters<Waiter>[0] | { type: 'timeout' }> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve({ type: 'exit', code: -1 });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve({ type: 'timeout' });
      }, timeoutMs);
      this.waiter = (m) => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve(m);
      };
    });
  }

  private settle(m: Parameters<Waiter>[0]): void {
    if (this.waiter) this.waiter(m);
    // The worker's next message, read by the next next(): one that came between two awaits of an
    // open invocation (its crash, say) included.
    else if (!this.ended) this.inbox.push(m);
  }
}

const stackOf = (error: unknown): string => (error as Error)?.stack ?? String(error);

/** Calls `line` for each line of a stream (the last one too, if it has no newline). */
function lines(stream: Readable, line: (text: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) line(part);
  });
  stream.on('end', () => {
    if (rest) line(rest);
  });
}
