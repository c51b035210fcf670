// Search admin commands: rebuild a workspace's full-text index from the table (docs/search.md). A
// rebuild checkpoints its progress, so one stopped halfway resumes where it stopped when run again;
// edits made while it runs are kept (the indexer reconciles them before it replaces the index).
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidArgumentError, type Command } from 'commander';
import { config } from '../../../lib/config.ts';
import { documentClient } from '../../../lib/data/dynamo.ts';
import { searchKeys } from '../../../lib/data/keys.ts';
import { s3Client } from '../../../lib/data/s3.ts';
import { isWorkspace, type Workspace } from '../../../lib/notes/search/model.ts';
import { searchIndexer } from '../../../lib/notes/search/wiring.ts';
import { print } from '../print.ts';

const workspace = (v: string) => {
  if (!isWorkspace(v)) throw new InvalidArgumentError('user:<userId> or team:<teamPath>');
  return v;
};

export function registerSearchCommands(program: Command): void {
  const search = program.command('search').description('the notes full-text search indexes');
  search
    .command('rebuild')
    .description("rebuild a workspace's index from the table (resumes a rebuild that stopped)")
    .argument('<workspace>', 'user:<userId> or team:<teamPath>', workspace)
    .action(async (ws) => {
      const started = Date.now();
      const notes = await searchIndexer().rebuild(ws, (done) => process.stderr.write(`${done} notes read\n`));
      print({ workspace: ws, notes, seconds: (Date.now() - started) / 1000 });
    });
  search
    .command('upgrade')
    .description(
      'rebuild every index stored by an earlier engine (one object, or MiniSearch segments) into SQLite segments',
    )
    .action(async () => {
      const upgraded: { workspace: string; notes: number }[] = [];
      for (const head of await legacyHeads()) {
        const notes = await searchIndexer().rebuild(head.workspace);
        await retire(head);
        upgraded.push({ workspace: head.workspace, notes });
      }
      print({ upgraded });
    });
}

/** A head of an earlier layout: the attributes naming its objects, and the objects. */
interface LegacyHead {
  workspace: Workspace;
  attributes: string[];
  objects: string[];
}

/** The MiniSearch segments' attributes (`s00`..`s15`, each naming its object in `location`). */
const LEGACY_SEGMENT = /^s\d\d$/;

/**
 * The index heads written by an earlier engine: the one-object layout (the whole index's object in
 * `location`) or the MiniSearch segments (`s00`..`s15`). The SQLite segments live in `f00`..`f07`,
 * and an upgraded head keeps none of the old attributes, so running the upgrade again finds nothing.
 */
async function legacyHeads(): Promise<LegacyHead[]> {
  const prefix = searchKeys.index('').PK;
  const out: LegacyHead[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: 'begins_with(PK, :prefix)',
        ExpressionAttributeValues: { ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const workspace = String(item.PK).slice(prefix.length);
      if (!isWorkspace(workspace)) continue;
      const head: LegacyHead = { workspace, attributes: [], objects: [] };
      if (item.location !== undefined) {
        head.attributes.push('location', 'generation', 'notes');
        head.objects.push(String(item.location));
      }
      for (const [name, value] of Object.entries(item))
        if (LEGACY_SEGMENT.test(name)) {
          head.attributes.push(name);
          head.objects.push(String((value as { location?: unknown }).location));
        }
      if (head.attributes.length) out.push(head);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** After its rebuild: the head forgets the old objects, then the objects go. */
async function retire(head: LegacyHead): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: searchKeys.index(head.workspace),
      UpdateExpression: `REMOVE ${head.attributes.map((_, i) => `#a${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(head.attributes.map((a, i) => [`#a${i}`, a])),
    }),
  );
  for (const key of head.objects)
    await s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: key }));
}
