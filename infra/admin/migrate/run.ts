// `npm run admin -- migrate`: brings every item of the table to the current layout, one step at a
// time (steps/index.ts). Each step is one Scan of the table, in `segments` parallel segments of
// `pageSize` items per page; each item's writes are applied, then the segment's checkpoint
// (lib/data/keys.ts, migrationKeys: its LastEvaluatedKey) is stored, so a run that stops (Ctrl-C, a
// lost connection, `maxPages`) resumes from the last page it finished. Steps are idempotent: a page
// done twice (stopped after its writes, before its checkpoint) changes nothing the second time.
// Safe on a live table: an update never recreates an item deleted meanwhile.
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../lib/config.ts';
import { documentClient } from '../../../lib/data/dynamo.ts';
import { cancellationReasons, isConditionFailure } from '../../../lib/data/failures.ts';
import { migrationKeys } from '../../../lib/data/keys.ts';
import type { MigrationItem, MigrationStep, MigrationWrite } from './step.ts';

export interface MigrateOptions {
  steps: MigrationStep[];
  /** Parallel Scan segments per step (DynamoDB's TotalSegments). */
  segments?: number;
  /** Items per Scan page (its Limit); a checkpoint is stored after every page. */
  pageSize?: number;
  /** Stop after this many pages in all (a planned interruption; the next run resumes). */
  maxPages?: number;
  /** Forget the checkpoints and scan from the start. */
  restart?: boolean;
  log?: (line: string) => void;
}

export interface StepReport {
  step: string;
  scanned: number;
  written: number;
  /** Every segment scanned to its end (now or in an earlier run). */
  complete: boolean;
}

type Checkpoint = { lastKey?: Record<string, unknown>; done?: boolean };

export async function migrate(o: MigrateOptions): Promise<StepReport[]> {
  const segments = o.segments ?? 4;
  const pageSize = o.pageSize ?? 500;
  const log = o.log ?? (() => {});
  const budget = { pages: o.maxPages ?? Number.POSITIVE_INFINITY };
  const reports: StepReport[] = [];
  for (const step of o.steps) {
    log(`${step.name}: ${step.describe}`);
    const report: StepReport = { step: step.name, scanned: 0, written: 0, complete: false };
    const done = await Promise.all(
      Array.from({ length: segments }, (_, segment) =>
        scanSegment(step, segment, segments, pageSize, o.restart ?? false, budget, report, log),
      ),
    );
    report.complete = done.every(Boolean);
    log(
      `${step.name}: ${report.complete ? 'complete' : 'stopped'}; ${report.scanned} items scanned, ${report.written} written`,
    );
    reports.push(report);
    if (!report.complete) break; // a later step may rely on an earlier one
  }
  return reports;
}

async function scanSegment(
  step: MigrationStep,
  segment: number,
  segments: number,
  pageSize: number,
  restart: boolean,
  budget: { pages: number },
  report: StepReport,
  log: (line: string) => void,
): Promise<boolean> {
  const Key = migrationKeys.checkpoint(step.name, segment, segments);
  const saved = restart ? {} : await readCheckpoint(Key);
  if (saved.done) return true;
  let lastKey = saved.lastKey;
  while (budget.pages > 0) {
    budget.pages -= 1;
    const page = await documentClient().send(
      new ScanCommand({
        TableName: config.tableName,
        Segment: segment,
        TotalSegments: segments,
        Limit: pageSize,
        ExclusiveStartKey: lastKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.PK).startsWith(migrationKeys.partitionPrefix)) continue;
      report.scanned += 1;
      for (const write of step.migrate(item as MigrationItem)) {
        // Not `report.written += await apply(…)`: that reads the count before the write, and the
        // segments write in parallel, so a segment would overwrite the other's increments.
        const changed = await apply(write);
        report.written += changed;
      }
    }
    lastKey = page.LastEvaluatedKey;
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...Key, type: 'migration-checkpoint', lastKey, done: !lastKey, at: new Date().toISOString() },
      }),
    );
    log(
      `${step.name}: segment ${segment + 1}/${segments}, ${report.scanned} scanned, ${report.written} written`,
    );
    if (!lastKey) return true;
  }
  return false;
}

async function readCheckpoint(Key: { PK: string; SK: string }): Promise<Checkpoint> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }),
  );
  return (Item ?? {}) as Checkpoint;
}

/** A transaction cancelled only because a condition failed (the checked item is gone). */
const isCancelledByCondition = (err: unknown): boolean =>
  cancellationReasons(err)?.some((r) => r === 'ConditionalCheckFailed') ?? false;

/** One write of a step; 1 if it changed the table, 0 if the item was gone (an update never recreates it). */
async function apply(w: MigrationWrite): Promise<number> {
  const TableName = config.tableName;
  if ('put' in w) {
    await documentClient().send(new PutCommand({ TableName, Item: w.put }));
    return 1;
  }
  if ('delete' in w) {
    await documentClient().send(new DeleteCommand({ TableName, Key: w.delete }));
    return 1;
  }
  const set = Object.entries(w.update.set ?? {});
  const remove = w.update.remove ?? [];
  if (!set.length && !remove.length) return 0;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = set.map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  const update = {
    TableName,
    Key: w.update.key,
    UpdateExpression: [
      sets.length ? `SET ${sets.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' '),
    ExpressionAttributeNames: names,
    ...(sets.length ? { ExpressionAttributeValues: values } : {}),
  };
  const { whileExists } = w.update;
  try {
    if (whileExists)
      // Transaction: the item is made or changed only while that other item exists.
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: { TableName, Key: whileExists, ConditionExpression: 'attribute_exists(PK)' } },
            { Update: update },
          ],
        }),
      );
    else
      await documentClient().send(
        new UpdateCommand({ ...update, ConditionExpression: 'attribute_exists(PK)' }),
      );
    return 1;
  } catch (err) {
    if (isConditionFailure(err) || isCancelledByCondition(err)) return 0;
    throw err;
  }
}
