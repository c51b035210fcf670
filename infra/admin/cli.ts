// npm run admin -- <command>: users, teams, tokens, roles, demo data, and each API's own commands.
// JSON on stdout; a clear message on stderr and exit code 1 on bad input. Commands use each API's
// wiring, which builds adapters and SDK clients on first use: after the target has set the environment.
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
