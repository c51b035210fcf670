// npm run bench: what a user pays per million calls of each route, by component, from the same
// run's figures: DynamoDB from the write and read units AWS bills per call, API Gateway per request,
// Lambda arm64 at the measured duration and the function's memory, CloudWatch Logs per byte
// ingested (the function's log lines and the API's access log line). Prices: us-east-1, on-demand,
// first tier, as AWS's pricing pages gave them on PRICES.date; no free tier.

export const PRICES = {
  date: '2026-11-26',
  region: 'us-east-1',
  /** DynamoDB on-demand, per write request unit (1 KB written; 2 per KB in a transaction). */
  dynamoWriteUnit: 0.625 / 1e6,
  /** DynamoDB on-demand, per read request unit (4 KB strongly consistent; half for eventual). */
  dynamoReadUnit: 0.125 / 1e6,
  /** API Gateway REST API, per request (first 333 million a month). */
  restApiRequest: 3.5 / 1e6,
  /** API Gateway HTTP API, per request of up to 512 KB (first 300 million a month). */
  httpApiRequest: 1.0 / 1e6,
  /** Lambda arm64, per GB-second (first 7.5 billion GB-s a month), duration rounded up to 1 ms. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** CloudWatch Logs, standard class, per GB ingested. */
  logsIngestedGb: 0.5,
  /** SQS standard queue, per request (each 64 KB of a payload a request). */
  sqsRequest: 0.4 / 1e6,
  /** S3 Standard, per PUT and per GET request (DELETE is free). */
  s3PutRequest: 5 / 1e6,
  s3GetRequest: 0.4 / 1e6,
} as const;

/**
 * An isolated note edit's way into the search index, in requests (docs/search.md): the stream
 * function's invocation, the note read (META and CONTENT, 2 read units), the head read (1), the
 * segment's S3 GET and PUT, the head's conditional UpdateItem (1 write unit: the head is under 1 KB).
 * Its compute grows with the workspace; the search bench measures it (`npm run bench -- --search`).
 */
export const searchEditRequests = () =>
  PRICES.lambdaRequest +
  3 * PRICES.dynamoReadUnit +
  PRICES.s3GetRequest +
  PRICES.s3PutRequest +
  PRICES.dynamoWriteUnit;

/** One route's measured usage per call. */
export interface RouteUsage {
  route: string;
  /** Write request units AWS bills per call (table and index writes). */
  writeUnits: number;
  /** Read request units AWS bills per call. */
  readUnits: number;
  /** Function duration per call, ms (billed rounded up to the next ms). */
  durationMs: number;
  /** The function's configured memory, MB. */
  memoryMb: number;
  /** Bytes ingested by CloudWatch Logs per call (function log lines and the access log line). */
  logBytes: number;
  /** Function invocations per call (1 for an API route). */
  invocations?: number;
}

export type Gateway = 'rest' | 'http' | 'none';

/** Dollars per million calls, by component. */
export interface RouteCost {
  route: string;
  dynamo: number;
  gateway: number;
  lambda: number;
  logs: number;
  total: number;
}

const GB = 1024 ** 3;

export function costPerMillion(u: RouteUsage, gateway: Gateway = 'rest'): RouteCost {
  const million = 1e6;
  const invocations = u.invocations ?? 1;
  const dynamo = (u.writeUnits * PRICES.dynamoWriteUnit + u.readUnits * PRICES.dynamoReadUnit) * million;
  const gatewayCost =
    gateway === 'none' ? 0 : (gateway === 'rest' ? PRICES.restApiRequest : PRICES.httpApiRequest) * million;
  const gbSeconds = (u.memoryMb / 1024) * (Math.ceil(u.durationMs) / 1000);
  const lambda = invocations * (gbSeconds * PRICES.lambdaGbSecond + PRICES.lambdaRequest) * million;
  const logs = (u.logBytes / GB) * PRICES.logsIngestedGb * million;
  return {
    route: u.route,
    dynamo,
    gateway: gatewayCost,
    lambda,
    logs,
    total: dynamo + gatewayCost + lambda + logs,
  };
}

const dollars = (n: number) => `$${n.toFixed(2)}`;

/** The rows of the README/docs table: per component and the total, REST and HTTP API totals side by side. */
export function costRows(usage: RouteUsage[]): string[][] {
  return usage.map((u) => {
    const rest = costPerMillion(u, 'rest');
    const http = costPerMillion(u, 'http');
    return [
      u.route,
      u.writeUnits.toFixed(1),
      u.readUnits.toFixed(1),
      u.durationMs.toFixed(0),
      dollars(rest.dynamo),
      dollars(rest.gateway),
      dollars(rest.lambda),
      dollars(rest.logs),
      dollars(rest.total),
      dollars(http.total),
    ];
  });
}

export const COST_HEAD = [
  'route',
  'WRU/call',
  'RRU/call',
  'ms',
  'DynamoDB',
  'API Gateway (REST)',
  'Lambda',
  'logs',
  '$/M calls (REST)',
  '$/M calls (HTTP API)',
];

/** A mix of routes (weights sum to 1): dollars per million calls of the mix. */
export const mixCost = (usage: RouteUsage[], weights: Record<string, number>, gateway: Gateway = 'rest') =>
  usage.reduce((sum, u) => sum + (weights[u.route] ?? 0) * costPerMillion(u, gateway).total, 0);

/**
 * Bytes CloudWatch Logs ingests per API call, estimated from this stack's formats: the Lambda
 * platform's JSON start and report lines (about 250 and 450 bytes), the API stage's access-log line
 * (template.yaml AccessLogSetting, about 550 bytes with values) and no application line on success
 * (LogLevel INFO logs errors and security events only).
 */
export const LOG_BYTES_PER_CALL = 1250;

/** Collects each route's billed units and duration during the bench's route loop. */
export class CostCollector {
  private readonly routes = new Map<string, { write: number[]; read: number[]; ms: number[] }>();
  constructor(private readonly memoryMb: (route: string) => number) {}

  /**
   * One call: the runner's billed-unit headers (on a priced call; absent without the biller) and
   * its duration (on a timed call: a priced call's duration includes the biller's own reads).
   */
  observe(route: string, header: (name: string) => string | undefined, ms?: number): void {
    const r = this.routes.get(route) ?? { write: [], read: [], ms: [] };
    this.routes.set(route, r);
    const w = header('x-local-dynamo-write-units');
    const rd = header('x-local-dynamo-read-units');
    if (w !== undefined && w !== '') r.write.push(Number(w));
    if (rd !== undefined && rd !== '') r.read.push(Number(rd));
    if (ms !== undefined) r.ms.push(ms);
  }

  /** Usage per route (medians), only for routes whose billed units the run measured. */
  usage(): RouteUsage[] {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
    return [...this.routes]
      .filter(([, r]) => r.write.length && r.read.length)
      .map(([route, r]) => ({
        route,
        writeUnits: median(r.write),
        readUnits: median(r.read),
        durationMs: median(r.ms),
        memoryMb: this.memoryMb(route),
        logBytes: LOG_BYTES_PER_CALL,
      }));
  }
}

/** What the webhook pipeline does per note write in a workspace with a webhook (docs/webhooks.md). */
export interface PipelineUsage {
  /** Invocations of the stream router and of the delivery function per note write. */
  routerInvocations: number;
  deliveryInvocations: number;
  /** Their median duration per invocation, ms (billed rounded up to the next ms). */
  routerMs: number;
  deliveryMs: number;
  memoryMb: number;
  /** Billed DynamoDB units per note write, router and delivery together. */
  readUnits: number;
  writeUnits: number;
  /** SQS requests per write: the router's send, the poller's receive and delete of each message. */
  sqsRequests: number;
  /** CloudWatch Logs bytes per write (PIPELINE_LOG_BYTES per invocation). */
  logBytes: number;
}

/** Log bytes of one event-driven invocation: Lambda's JSON start and report lines (no access log). */
export const PIPELINE_LOG_BYTES = 700;

/**
 * Dollars per million note writes the pipeline adds. Without a webhook it adds nothing: the
 * stream's filter passes no record (the `hooked` marker), and Lambda's reads of the stream and its
 * filtering are not billed.
 */
export function pipelinePerMillion(p: PipelineUsage): number {
  const lambda = (invocations: number, ms: number) =>
    invocations *
    ((p.memoryMb / 1024) * (Math.ceil(ms) / 1000) * PRICES.lambdaGbSecond + PRICES.lambdaRequest) *
    1e6;
  const dynamo = (p.writeUnits * PRICES.dynamoWriteUnit + p.readUnits * PRICES.dynamoReadUnit) * 1e6;
  const sqs = p.sqsRequests * PRICES.sqsRequest * 1e6;
  const logs = (p.logBytes / GB) * PRICES.logsIngestedGb * 1e6;
  return (
    lambda(p.routerInvocations, p.routerMs) +
    lambda(p.deliveryInvocations, p.deliveryMs) +
    dynamo +
    sqs +
    logs
  );
}

/** The routes of the README's short table (labels as the bench prints them), in its order. */
export const README_ROUTES = [
  'GET /v1/me',
  'GET /v1/notes',
  'GET /v1/notes/{noteId} (4 KiB, reader)',
  'GET /v1/notes/{noteId} (20 KiB, reader)',
  'PATCH /v1/notes/{noteId} (4 KiB, content)',
  'POST /v1/notes (4 KiB)',
  'DELETE /v1/notes/{noteId} (4 KiB, 2 readers)',
  'GET /v1/history',
  'GET /v1/search',
  'GET /api/v1/news (page 1 of 500)',
  'POST /api/transfers (Idempotency-Key)',
  'GET /api/transfers',
  'POST /api/users/{userId}/verifications/{verificationId} (passkey)',
  'POST /api/push/challenges/{verificationId} (approve)',
] as const;

/** A HackMD-like mix of calls (docs/architecture.md, "Cost per call"): weights sum to 1. */
export const HACKMD_MIX: Record<string, number> = {
  'GET /v1/notes/{noteId} (4 KiB, reader)': 0.45,
  'PATCH /v1/notes/{noteId} (4 KiB, content)': 0.15,
  'GET /v1/notes': 0.15,
  'GET /v1/me': 0.1,
  'GET /v1/history': 0.05,
  'POST /v1/notes (4 KiB)': 0.05,
  'DELETE /v1/notes/{noteId} (4 KiB, 2 readers)': 0.05,
};

/** The README's table: per component, behind REST; the total behind an HTTP API beside it. */
export const README_COST_HEAD = [
  'route',
  'DynamoDB',
  'API Gateway (REST)',
  'Lambda',
  'logs',
  'total',
  'total behind an HTTP API',
];

export function readmeCostRows(usage: RouteUsage[]): string[][] {
  const byRoute = new Map(usage.map((u) => [u.route, u]));
  return README_ROUTES.filter((r) => byRoute.has(r)).map((r) => {
    const u = byRoute.get(r)!;
    const rest = costPerMillion(u, 'rest');
    return [
      `\`${r}\``,
      dollars(rest.dynamo),
      dollars(rest.gateway),
      dollars(rest.lambda),
      dollars(rest.logs),
      dollars(rest.total),
      dollars(costPerMillion(u, 'http').total),
    ];
  });
}

/** The prices as one sentence (README and docs/benchmarks.md), with their date. */
export const pricesLine = () =>
  `Prices: ${PRICES.region}, on demand, as of ${PRICES.date}: DynamoDB $${(PRICES.dynamoWriteUnit * 1e6).toFixed(3)} ` +
  `per million write units and $${(PRICES.dynamoReadUnit * 1e6).toFixed(3)} per million read units; API Gateway ` +
  `REST $${(PRICES.restApiRequest * 1e6).toFixed(2)} (HTTP API $${(PRICES.httpApiRequest * 1e6).toFixed(2)}) per million requests; ` +
  `Lambda arm64 $${PRICES.lambdaGbSecond} per GB-second and $${(PRICES.lambdaRequest * 1e6).toFixed(2)} per million ` +
  `requests; CloudWatch Logs $${PRICES.logsIngestedGb.toFixed(2)} per GB; SQS $${(PRICES.sqsRequest * 1e6).toFixed(2)} per million requests; ` +
  `S3 $${(PRICES.s3PutRequest * 1e6).toFixed(2)} per million PUTs and $${(PRICES.s3GetRequest * 1e6).toFixed(2)} per million GETs.`;
