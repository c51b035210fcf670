// Runs an `npm run admin` command in process, against the test stack's table; returns its JSON output.
import { vi } from 'vitest';
import { buildProgram } from '../../infra/admin/program.ts';

export async function admin(...args: string[]): Promise<any> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    const program = buildProgram().exitOverride();
    for (const command of program.commands) command.exitOverride();
    await program.parseAsync(['node', 'admin', '--table', process.env.TABLE_NAME!, ...args]);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(out);
}
