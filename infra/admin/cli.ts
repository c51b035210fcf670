// npm run admin -- <command>: users, teams, tokens, roles, demo data, and each API's own commands.
// JSON on stdout; a clear message on stderr and exit code 1 on bad input.
// The target is resolved first (lib modules read the environment when they create clients).
import { targetDeployed, targetLocal } from './context.ts';

const argv = process.argv.slice(2);
const option = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const wantsHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';

try {
  if (!wantsHelp) {
    const table = option('--table') ?? process.env.TRI_API_TABLE;
    if (table) targetDeployed(table, option('--region'), option('--bucket'));
    else targetLocal(option('--data-dir'));
  }
  const { buildProgram } = await import('./program.ts');
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
