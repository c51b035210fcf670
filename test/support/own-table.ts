// A table of a test file's own on the run's DynamoDB Local, and runners of its own serving it (on the
// run's S3 emulator). For a file whose work must not meet the shared runner's: its runners' stream
// pollers read only its writes (as one stack's event source mapping does), and what it does to its
// table (a migration over every item, a restart) touches no other file's data. In beforeAll:
// `await table.create()` (process.env.TABLE_NAME is then the file's table: its users and its
// runners' functions use it); in afterAll: `await table.drop()` (closes its runners too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runner, startRunner } from '../../infra/local/runner.ts';
import { dropTable, ensureTable, freePort } from '../../infra/local/services.ts';
import { functionEnvironment, type LocalStack } from '../../infra/local/stack.ts';
import { TEST_TIMEOUT_SCALE } from './runner.ts';

/** The values that name the runner's own address; the others are the run's (global setup's). */
const OWN_ADDRESS = [
  'PUBLIC_BASE_URL',
  'IMAGE_BASE_URL',
  'NOTES_LIVE_URL',
  'NOTES_LIVE_CONNECTIONS_URL',
  'PASSKEY_ORIGINS',
];

export class OwnTable {
  readonly name: string;
  private readonly runners = new Set<Runner>();
  private readonly scratch = mkdtempSync(join(tmpdir(), 'tri-api-own-table-'));
  private readonly endpoint = () => process.env.LOCAL_DYNAMODB_ENDPOINT!;

  constructor(prefix: string) {
    this.name = `tri-api-${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  }

  async create(): Promise<void> {
    await ensureTable(this.endpoint(), this.name);
    process.env.TABLE_NAME = this.name;
  }

  /** A runner on this table; `env` adds function variables (e.g. LOCAL_WARM_FUNCTIONS). */
  async start(name: string, env: Record<string, string> = {}): Promise<Runner> {
    const port = await freePort();
    const stack = {
      dynamoEndpoint: this.endpoint(),
      s3Endpoint: process.env.LOCAL_S3_ENDPOINT!,
      tableName: this.name,
      bucketName: process.env.BUCKET_NAME!,
      secrets: {},
    } as unknown as LocalStack;
    const own = functionEnvironment(stack, `http://localhost:${port}`);
    const vars: Record<string, string> = {};
    for (const [key, value] of Object.entries(own)) {
      const v = OWN_ADDRESS.includes(key) ? value : (process.env[key] ?? value);
      if (v !== undefined) vars[key] = v;
    }
    const runner = await startRunner({
      port,
      env: { ...vars, ...env },
      s3Endpoint: stack.s3Endpoint,
      bucketName: stack.bucketName,
      buildDir: join(this.scratch, name),
      timeoutScale: TEST_TIMEOUT_SCALE, // as the shared test runner: a busy machine is not a timeout
    });
    this.runners.add(runner);
    return runner;
  }

  async stop(runner: Runner): Promise<void> {
    this.runners.delete(runner);
    await runner.close();
  }

  /** Closes this table's runners and drops it. */
  async drop(): Promise<void> {
    await Promise.all([...this.runners].map((r) => this.stop(r)));
    rmSync(this.scratch, { recursive: true, force: true });
    await dropTable(this.endpoint(), this.name);
  }
}
