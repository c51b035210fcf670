// How a running local stack is found: `npm start` writes LOCAL_DATA_DIR/stack.json (its pid,
// URL and endpoints) when it is ready and removes it when it stops. The admin CLI and npm start
// read it through runningStack(), which treats a file whose pid is gone as no stack (and removes it).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './template.ts';

export interface StackInfo {
  pid: number;
  url: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
  /** The runner's Secrets Manager stand-in (infra/local/secrets-manager.ts). */
  secretsEndpoint?: string;
}

/** LOCAL_DATA_DIR (relative to the repository root), default `.local`. */
export const defaultDataDir = (): string => resolve(ROOT, process.env.LOCAL_DATA_DIR ?? '.local');
export const stackFile = (dataDir: string): string => join(dataDir, 'stack.json');

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function writeStackInfo(dataDir: string, info: StackInfo): void {
  writeFileSync(stackFile(dataDir), JSON.stringify(info, null, 2));
}

/** Removes stack.json if it is this process's (a second `npm start` must not remove the first's). */
export function removeStackInfo(dataDir: string, pid = process.pid): void {
  const file = stackFile(dataDir);
  try {
    if (JSON.parse(readFileSync(file, 'utf8')).pid === pid) rmSync(file, { force: true });
  } catch {
    /* no file, or not ours to read */
  }
}

export type StackLookup = { running: true; info: StackInfo } | { running: false; why: string };

/** The stack running on `dataDir`, or why there is none (a stale file is removed). */
export function runningStack(dataDir: string): StackLookup {
  const file = stackFile(dataDir);
  if (!existsSync(file)) return { running: false, why: `${file} is missing` };
  let info: StackInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { running: false, why: `${file} is unreadable` };
  }
  if (!Number.isInteger(info.pid) || !isAlive(info.pid)) {
    rmSync(file, { force: true });
    return {
      running: false,
      why: `${file} named process ${info.pid}, which is not running (stale file removed)`,
    };
  }
  return { running: true, info };
}
