// The cold-start bench fails a function that goes over 1.3× its floor or bundles a client its
// policies never allow (infra/bench/coldstart.ts), so a regression shows in `npm run bench`. Run
// here on fixture functions built with the real functions' BuildProperties; bundle sizes, clients and
// peak memory are steady, so those are asserted (load time on a shared machine is the bench's business).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ColdStartRow, coldStart, FAIL_RATIO } from '#infra/bench/coldstart.ts';
import { listFunctions, loadTemplate, type Template } from '#infra/local/template.ts';

const MiB = 1024 * 1024;
/** More than a floor process ever holds (about 80 MiB). */
const BALLAST = 512 * MiB;
const out = mkdtempSync(join(tmpdir(), 'tri-api-coldstart-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const real = loadTemplate();
const { metadata, properties } = listFunctions(real)[0];
const dynamoOnly = [{ DynamoDBReadPolicy: { TableName: { Ref: 'Table' } } }];

/** A template of fixture functions, each built and configured like the first real function. */
const fixtures = (...names: string[]): Template => ({
  ...real,
  Resources: Object.fromEntries(
    names.map((name) => [
      `${name}Function`,
      {
        Type: 'AWS::Serverless::Function',
        Properties: { ...properties, Events: {}, Policies: dynamoOnly },
        Metadata: {
          ...metadata,
          BuildProperties: {
            ...metadata.BuildProperties,
            EntryPoints: [`test/fixtures/coldstart/${name}.ts`],
          },
        },
      },
    ]),
  ),
});

describe('cold-start bench verdicts', { timeout: 120_000 }, () => {
  let rows: Map<string, ColdStartRow>;
  const row = (name: string) => rows.get(`${name}Function`)!;

  it("measures each fixture against the DynamoDB floor, each sample's memory its own", async () => {
    // The bench runs with a whole stack loaded: its peak must not show as every sample's peak.
    const ballast = Buffer.alloc(BALLAST, 1);
    const measured = await coldStart({
      outdir: out,
      pairs: 2,
      template: fixtures('lean', 'fat', 'stray-client'),
    });
    rows = new Map(measured.map((r) => [r.id, r]));
    for (const r of measured) {
      expect(r.floor).toBe('dynamodb: GetItem');
      expect(r.loadMs).toBeGreaterThan(0);
      expect(r.floorRss).toBeGreaterThan(16 * MiB);
      expect(r.floorRss).toBeLessThan(ballast.length);
    }
  });

  it('shows what a heavier bundle costs in memory', () => {
    expect(row('lean').ratios.memory).toBeLessThan(1.05);
    expect(row('fat').ratios.memory).toBeGreaterThan(1.05);
  });

  it("counts the AWS requests of a function's first call", () => {
    // lean reads one item, as its floor does; fat validates the event first, then reads it too.
    expect(row('lean').firstCallRequests).toBe(1);
    expect(row('fat').firstCallRequests).toBe(1);
  });

  it('passes a function the size of its floor', () => {
    expect(row('lean').ratios.bundle).toBeLessThan(1.05);
    expect(row('lean').problems.filter((p) => !/^(coldStart|cold start)/.test(p))).toEqual([]);
  });

  it(`fails a function whose bundle is over ${FAIL_RATIO}× its floor`, () => {
    expect(row('fat').ratios.bundle).toBeGreaterThan(FAIL_RATIO);
    expect(row('fat').problems).toContainEqual(expect.stringMatching(/^bundle \d\.\d\d× its floor/));
  });

  it('fails a function that bundles a client its policies never allow', () => {
    expect(row('stray-client').clients).toEqual(['dynamodb', 's3']);
    expect(row('stray-client').problems).toContain(
      'bundles the s3 client(s) its policies never allow it to call',
    );
  });
});
