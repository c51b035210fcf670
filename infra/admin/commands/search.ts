// Search admin commands: rebuild a workspace's full-text index from the table (docs/search.md). A
// rebuild checkpoints its progress, so one stopped halfway resumes where it stopped when run again;
// edits made while it runs are kept (the indexer reconciles them before it replaces the index).
import { InvalidArgumentError, type Command } from 'commander';
import { isWorkspace } from '../../../lib/notes/search/model.ts';
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
}
