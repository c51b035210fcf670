// The hand-written floors of infra/bench/floors (one per set of AWS clients, which `--floor-builds`
// and `--data-path` measure; the cold-start table generates each function's own floor from its
// first call's requests): every function's set of clients has one, and each floor bundles exactly the
// clients its name says, built the way SAM builds the functions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFloors, floorOf, floorServices, policyServices } from '#infra/bench/coldstart.ts';
import { listFunctions } from '#infra/local/template.ts';

const out = mkdtempSync(join(tmpdir(), 'tri-api-floors-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('cold-start floors', () => {
  it('reads the services from SAM policy templates and IAM statements', () => {
    expect(
      policyServices([{ DynamoDBReadPolicy: { TableName: 't' } }, { S3WritePolicy: { BucketName: 'b' } }]),
    ).toEqual(['dynamodb', 's3']);
    expect(
      policyServices([{ Statement: [{ Effect: 'Allow', Action: ['sns:Publish', 'ses:SendEmail'] }] }]),
    ).toEqual(['ses', 'sns']);
    expect(policyServices([])).toEqual([]);
  });

  it('gives every function of template.yaml a floor that bundles exactly the clients it may use', async () => {
    const fns = listFunctions();
    const { EntryPoints, ...bp } = fns[0].metadata.BuildProperties;
    const floors = await buildFloors(out, bp);
    for (const [name, floor] of floors) expect(floor.clients.join('-'), name).toBe(name);
    for (const fn of fns)
      expect(floorOf(floors, floorServices(fn.properties.Policies ?? [])), fn.id).toBeDefined();
    const used = new Set(fns.map((fn) => floorOf(floors, floorServices(fn.properties.Policies ?? []))));
    expect([...used].sort(), "every floor is some function's floor").toEqual([...floors.keys()].sort());
  });
});
