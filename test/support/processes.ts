// Finding the processes a test started, however they were reparented: every process inherits the
// environment, so a child started with TRI_API_TEST_MARKER=<uuid> marks its whole tree (npm, sh,
// tsx, node, esbuild, java). Linux /proc.
import { readdirSync, readFileSync } from 'node:fs';

export const MARKER = 'TRI_API_TEST_MARKER';

export interface Proc {
  pid: number;
  args: string;
}

/** Live processes whose environment carries MARKER=marker (zombies excluded). */
export function marked(marker: string): Proc[] {
  const out: Proc[] = [];
  const needle = `${MARKER}=${marker}\0`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!`${readFileSync(`/proc/${name}/environ`, 'latin1')}\0`.includes(needle)) continue;
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue;
      out.push({
        pid: Number(name),
        args: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(),
      });
    } catch {
      /* gone meanwhile, or not ours */
    }
  }
  return out;
}

/** Waits up to `ms` for every marked process to end; returns those still running. */
export async function leftAfter(marker: string, ms: number): Promise<Proc[]> {
  const deadline = Date.now() + ms;
  let left = marked(marker);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = marked(marker);
  }
  return left;
}

/** Kills every marked process (cleanup after a failed assertion; never leaves a tree behind). */
export function killMarked(marker: string): void {
  for (const p of marked(marker)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}
