// Finding the processes a test started, however they were reparented: every process inherits the
// environment, so a child started with TRI_API_TEST_MARKER=<uuid> marks its whole tree (npm, sh,
// tsx, node, esbuild, java). Linux /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

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

/**
 * How much slower than a machine with spare cores this one runs now: 1 until the load passes twice
 * the cores, then load / (2 × cores). Wall-clock promises a test checks (a 503 within 3 s, a poll
 * answered within a second) hold on a machine with spare cores; on a crowded one the test's own
 * process is as late as the product, so the bound stretches by this factor (said in the message).
 */
export function busyFactor(): number {
  return Math.max(1, loadavg()[0] / (2 * cpus().length));
}
