// The file where the global setup's runner keeps the functions' output during a test run
// (test/support/function-logs.ts shows it with a failing test). No vitest here: the global setup
// (vitest's main process) imports it.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { FunctionOutput } from '../../infra/local/environments.ts';

export const FUNCTION_LOG_ENV = 'TRI_API_TEST_FUNCTION_LOG';
export const showLogs = (): boolean => !!process.env.TRI_API_TEST_SHOW_LOGS;

/** The global setup's sink for the runner's function output: one line each, with its time. */
export const keepFunctionOutput =
  (file: string): FunctionOutput =>
  ({ functionId, stream, text }) =>
    appendFileSync(file, `${Date.now()}\t${functionId}\t${stream}\t${text}\n`);

/** The kept lines written at or after `since` (ms since the epoch), as `functionId | text`. */
export function functionLinesSince(since: number, file = process.env[FUNCTION_LOG_ENV]): string[] {
  if (!file || !existsSync(file)) return [];
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [at, functionId, , ...text] = line.split('\t');
    if (Number(at) >= since) out.push(`${functionId} | ${text.join('\t')}`);
  }
  return out;
}
