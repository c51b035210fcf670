// Keeps npm start's process tree whole: `npm start` runs npm → sh → tsx → node (this process), and
// a signal or kill -9 may hit any of them. This watchdog polls the ancestors this process started
// under and the esbuild service it runs; when any of them is gone it calls `onLost`, which stops
// everything. (DynamoDB Local watches us through its stdin guard; see services.ts.) Linux /proc;
// elsewhere only the parent is watched.
import { readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  start: string;
  name: string;
}

/** pid, ppid, start time and name of a process, from /proc/<pid>/stat (undefined when gone). */
function stat(pid: number): { ppid: number; proc: Proc } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    return { ppid: Number(fields[1]), proc: { pid, start: fields[19], name } };
  } catch {
    return undefined;
  }
}

function ancestors(): Proc[] {
  const out: Proc[] = [];
  let pid = process.ppid;
  while (pid > 1 && out.length < 64) {
    const s = stat(pid);
    if (!s) break;
    out.push(s.proc);
    pid = s.ppid;
  }
  return out;
}

function children(name: string): Proc[] {
  const pids = new Set<number>();
  try {
    for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
      const list = readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').trim();
      for (const p of list ? list.split(' ') : []) pids.add(Number(p));
    }
  } catch {
    return [];
  }
  return [...pids].map((p) => stat(p)?.proc).filter((p): p is Proc => p?.name === name);
}

const same = (p: Proc) => stat(p.pid)?.proc.start === p.start;

export interface Watchdog {
  stop(): void;
}

export function watchProcessTree(onLost: (why: string) => void, intervalMs = 500): Watchdog {
  const linux = process.platform === 'linux';
  const parents = linux ? ancestors() : [];
  const parentPid = process.ppid;
  const seen = new Map<number, Proc>();
  const timer = setInterval(() => {
    const gone = linux ? parents.find((p) => !same(p)) : undefined;
    if (gone) return lost(`parent process ${gone.pid} (${gone.name}) is gone`);
    if (process.ppid !== parentPid) return lost(`parent process ${parentPid} is gone`);
    for (const c of linux ? children('esbuild') : []) seen.set(c.pid, c);
    const dead = [...seen.values()].find((c) => !same(c));
    if (dead) return lost(`child process ${dead.pid} (${dead.name}) is gone`);
  }, intervalMs);
  timer.unref();
  const lost = (why: string) => {
    clearInterval(timer);
    onLost(why);
  };
  return { stop: () => clearInterval(timer) };
}
