// Dependencies fail fast. Every SDK client gets a connection timeout, a total request timeout and
// bounded retries, so an unresponsive DynamoDB costs a request at most ~1.3 s (2 attempts of 0.6 s
// plus the SDK's jittered backoff), far under the functions' 10 s timeout. What is still failing
// after the retries (timeouts, throttling, refused or reset connections, service faults) is thrown
// as the domain's Unavailable, which every dialect answers with 503 and Retry-After.
import { config } from '../config.ts';
import { Unavailable } from '../domain/errors.ts';

/** Seconds a client is told to wait before retrying a request that met an unavailable dependency. */
export const RETRY_AFTER_SECONDS = 2;

const TIMEOUTS = {
  /** DynamoDB answers in milliseconds; 0.6 s (config.dynamoTimeoutMs) is a dependency that is not there. */
  dynamodb: {
    connectionTimeout: 400,
    get requestTimeout() {
      return config.dynamoTimeoutMs;
    },
    maxAttempts: 2,
  },
  /** S3 carries image bodies of up to 4 MiB: more time per request, the same bound on attempts. */
  s3: { connectionTimeout: 1_000, requestTimeout: 4_000, maxAttempts: 2 },
  /** SNS and SES send one short message. */
  messaging: { connectionTimeout: 1_000, requestTimeout: 2_000, maxAttempts: 2 },
};

/** Client configuration: `new DynamoDBClient(failFast('dynamodb'))`. */
export function failFast(kind: keyof typeof TIMEOUTS) {
  const { connectionTimeout, requestTimeout, maxAttempts } = TIMEOUTS[kind];
  return { maxAttempts, requestHandler: { connectionTimeout, requestTimeout, throwOnRequestTimeout: true } };
}

/** The Unavailable (503 + Retry-After) a dependency's failure becomes, keeping the SDK error as its cause. */
function unavailable(dependency: string, cause: unknown): Unavailable {
  const err = new Unavailable(
    `${dependency} unavailable: ${(cause as Error)?.name ?? 'error'}: ${(cause as Error)?.message ?? cause}`,
    RETRY_AFTER_SECONDS,
  );
  return Object.assign(err, { cause });
}

const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'SlowDown',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'LimitExceededException',
  'TooManyRequestsException',
]);
const UNAVAILABLE_CODES = new Set([
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** What a retry later could fix: timeouts, throttling, network failures, server-side faults. */
export function isUnavailable(err: unknown): boolean {
  const e = err as { name?: string; code?: string; $fault?: string; $metadata?: { httpStatusCode?: number } };
  if (!e || typeof e !== 'object') return false;
  if (UNAVAILABLE_NAMES.has(e.name ?? '') || UNAVAILABLE_CODES.has(e.code ?? '')) return true;
  const status = e.$metadata?.httpStatusCode;
  return e.$fault === 'server' && (status === undefined || status >= 500);
}

/** Adds to `client` the outermost middleware that turns unavailability into Unavailable. */
// biome-ignore lint/suspicious/noExplicitAny: each SDK client types its middleware stack differently
type Stack = { middlewareStack: { add(middleware: any, options: Record<string, unknown>): void } };

export function reportUnavailable<C extends Stack>(client: C, dependency: string): C {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      try {
        return await next(args);
      } catch (err) {
        throw isUnavailable(err) ? unavailable(dependency, err) : err;
      }
    },
    { step: 'initialize', name: 'reportUnavailable', priority: 'high' },
  );
  return client;
}
