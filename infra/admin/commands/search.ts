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
      'rebuild every index still in the one-object layout (its head names a `location`) into segments',
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

/**
 * The index heads of the one-object layout: a head item naming the whole index's S3 object in
 * `location`. Segmented heads name their segments instead (s00..s15), and an upgraded head keeps
 * no `location`, so running the upgrade again finds nothing left to do.
 */
async function legacyHeads(): Promise<{ workspace: Workspace; location: string }[]> {
  const prefix = searchKeys.index('').PK;
  const out: { workspace: Workspace; location: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: 'begins_with(PK, :prefix) AND attribute_exists(#location)',
        ExpressionAttributeNames: { '#location': 'location' },
        ExpressionAttributeValues: { ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const workspace = String(item.PK).slice(prefix.length);
      if (isWorkspace(workspace)) out.push({ workspace, location: String(item.location) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** After its rebuild: the head forgets the old object, then the object goes. */
async function retire(head: { workspace: Workspace; location: string }): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: searchKeys.index(head.workspace),
      UpdateExpression: 'REMOVE #location, generation, notes',
      ExpressionAttributeNames: { '#location': 'location' },
    }),
  );
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: head.location }));
}
