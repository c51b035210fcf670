import { Command } from 'commander';
import { targetDeployed, targetLocal } from './context.ts';
import { registerIdentityCommands } from './commands/identity.ts';
import { registerNotesCommands } from './commands/notes.ts';
import { registerNewsCommands } from './commands/news.ts';
import { registerBankCommands } from './commands/bank.ts';
import { registerMigrateCommand } from './commands/migrate.ts';
import { registerSearchCommands } from './commands/search.ts';

export function buildProgram(): Command {
  const program = new Command('admin')
    .description(
      'tri-api admin CLI. Targets the running local stack, or a deployed one with --table/--region.',
    )
    .option('--table <name>', 'DynamoDB table of a deployed stack (stack output TableName)')
    .option('--region <region>', 'AWS region of the deployed stack')
    .option('--bucket <name>', 'image bucket of the deployed stack (stack output BucketName)')
    .option('--data-dir <dir>', 'local data directory (default .local)')
    .showHelpAfterError()
    // Options are parsed and checked first; only then is the target resolved.
    .hook('preAction', (cmd) => {
      const o = cmd.opts<{ table?: string; region?: string; bucket?: string; dataDir?: string }>();
      const table = o.table ?? process.env.TRI_API_TABLE;
      if (table) targetDeployed(table, o.region, o.bucket);
      else targetLocal(o.dataDir);
    });
  registerIdentityCommands(program);
  registerNotesCommands(program);
  registerNewsCommands(program);
  registerBankCommands(program);
  registerMigrateCommand(program);
  registerSearchCommands(program);
  return program;
}
