// Structured logs through Lambda's own JSON logging (template: LoggingConfig.LogFormat JSON). There,
// the runtime writes each console call as one JSON line with timestamp, level and requestId, turns
// Errors into errorType/errorMessage/stackTrace, and drops levels below ApplicationLogLevel. Outside
// Lambda (the local runner, tests) this module writes the same shape itself. It replaced Powertools
// Logger, which added 24 KiB and ~14 ms to every cold start for what Lambda already does
// (docs/benchmarks.md, "Cold start: each function against its floor").
type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
type Fields = Record<string, unknown>;

const RANK: Record<string, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, FATAL: 5 };
const METHOD = { DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** Lambda's runtime formats the record itself when it logs JSON (it sets this variable). */
const lambdaJson = () => process.env.AWS_LAMBDA_LOG_FORMAT === 'JSON';
/** Lambda sets AWS_LAMBDA_LOG_LEVEL from ApplicationLogLevel; LOG_LEVEL is the local runner's. */
const threshold = () =>
  RANK[(process.env.AWS_LAMBDA_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'INFO').toUpperCase()] ?? RANK.INFO;

/** Errors as Lambda's JSON format writes them (an Error's own properties are not enumerable). */
const errorsAsJson = (_key: string, value: unknown) =>
  value instanceof Error
    ? { errorType: value.name, errorMessage: value.message, stackTrace: value.stack?.split('\n') }
    : value;

function write(level: Level, message: string, fields: Fields = {}): void {
  if (RANK[level] < threshold()) return;
  const record = { message, ...fields };
  if (lambdaJson()) {
    console[METHOD[level]](record);
    return;
  }
  const line = { timestamp: new Date().toISOString(), level, ...record };
  process.stdout.write(`${JSON.stringify(line, errorsAsJson)}\n`);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write('DEBUG', message, fields),
  info: (message: string, fields?: Fields) => write('INFO', message, fields),
  warn: (message: string, fields?: Fields) => write('WARN', message, fields),
  error: (message: string, fields?: Fields) => write('ERROR', message, fields),
};
