// The admin CLI pointed at the local stack uses the local DynamoDB timeout, as `npm start` gives its
// functions, not the deployed 600 ms: on a busy machine DynamoDB Local is slow, not down.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { targetLocal } from '../../../infra/admin/context.ts';
import { LOCAL_DYNAMODB_TIMEOUT_MS } from '../../../infra/local/services.ts';
import { failFast } from '../../../lib/data/fail-fast.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** A data dir whose stack.json names a live process (this one): what `npm start` leaves. */
function runningStackDir() {
  const dir = mkdtempSync(join(tmpdir(), 'admin-context-'));
  writeFileSync(
    join(dir, 'stack.json'),
    JSON.stringify({
      pid: process.pid,
      url: 'http://localhost:1',
      dynamoEndpoint: 'http://127.0.0.1:1',
      s3Endpoint: 'http://127.0.0.1:2',
      tableName: 't',
      bucketName: 'b',
    }),
  );
  return dir;
}

describe('admin CLI target: the local stack', () => {
  it("uses the local DynamoDB timeout (npm start's), not the deployed 600 ms", () => {
    delete process.env.DYNAMODB_TIMEOUT_MS;
    expect(failFast('dynamodb').requestHandler.requestTimeout).toBe(600);
    const dir = runningStackDir();
    try {
      targetLocal(dir);
      expect(failFast('dynamodb').requestHandler.requestTimeout).toBe(Number(LOCAL_DYNAMODB_TIMEOUT_MS));
      expect(Number(LOCAL_DYNAMODB_TIMEOUT_MS)).toBe(20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps an explicit DYNAMODB_TIMEOUT_MS', () => {
    process.env.DYNAMODB_TIMEOUT_MS = '5000';
    const dir = runningStackDir();
    try {
      targetLocal(dir);
      expect(failFast('dynamodb').requestHandler.requestTimeout).toBe(5000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
