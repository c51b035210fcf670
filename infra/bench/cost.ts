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
} as const;

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
