// `npm run admin -- migrate`: brings a table of an earlier layout to the current one
// (docs/deploy.md, "Upgrading a deployed table"). Resumable and idempotent (infra/admin/migrate).
import { InvalidArgumentError, type Command } from 'commander';
import { migrate } from '../migrate/run.ts';
import { STEPS } from '../migrate/steps/index.ts';
import { print } from '../print.ts';

const between = (lo: number, hi: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi)
    throw new InvalidArgumentError(`an integer from ${lo} to ${hi}`);
  return n;
};

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'bring every item to the current table layout, step by step (resumes from its checkpoints; safe to run again)',
    )
    .option('--segments <n>', 'parallel scan segments per step', between(1, 64), 4)
    .option('--page-size <n>', 'items per scan page (a checkpoint after each)', between(1, 1000), 500)
    .option('--max-pages <n>', 'stop after this many pages (the next run resumes)', between(1, 1_000_000))
    .option('--restart', 'ignore the checkpoints and scan from the start')
    .option('--list', 'list the steps and exit')
    .action(async (o) => {
      if (o.list) return print(STEPS.map((s) => ({ step: s.name, describe: s.describe })));
      const reports = await migrate({
        steps: STEPS,
        segments: o.segments,
        pageSize: o.pageSize,
        maxPages: o.maxPages,
        restart: o.restart,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      print(reports);
      if (reports.some((r) => !r.complete)) process.exitCode = 2;
    });
}
