import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { importIntoTable } from '../../seed/import-news.ts';
import { print } from '../print.ts';

/** News API admin commands (registered by infra/admin/program.ts). */
export function registerNewsCommands(program: Command): void {
  program
    .command('import-news')
    .description(
      'validate and upsert news content from a JSON file {users, tags, articles}; progress on stderr',
    )
    .argument(
      '<file>',
      "JSON file in the API's field names (users also carry privacy and raw private values)",
    )
    .action(async (file: string) => {
      let input: unknown;
      try {
        input = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new Error(`cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      let shown = -1;
      const summary = await importIntoTable(input, {
        progress: (phase, done, total) => {
          const pct = Math.floor((done / Math.max(total, 1)) * 100);
          if (pct !== shown || done === total) {
            shown = pct;
            process.stderr.write(`\r${phase}: ${done}/${total} (${pct}%)${done === total ? '\n' : ''}`);
          }
        },
      });
      print(summary);
    });
}
