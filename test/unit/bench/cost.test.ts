// The bench's cost model (infra/bench/cost.ts) on hand-worked cases, at the dated prices.
import { describe, expect, it } from 'vitest';
import { costPerMillion, mixCost, pipelinePerMillion, PRICES } from '../../../infra/bench/cost.ts';

const usage = {
  route: 'POST /api/transfers',
  writeUnits: 4,
  readUnits: 0.5,
  durationMs: 20.2,
  memoryMb: 512,
  logBytes: 600,
};

describe('cost per million calls', () => {
  it('prices each component by its own rule', () => {
    const c = costPerMillion(usage, 'rest');
    // 4 WRU × $0.625 + 0.5 RRU × $0.125 per million units.
    expect(c.dynamo).toBeCloseTo(2.5625, 6);
    expect(c.gateway).toBeCloseTo(3.5, 6);
    // 0.5 GB × 0.021 s (20.2 ms billed as 21 ms) × $0.0000133334 per GB-s, + $0.20 per million requests.
    expect(c.lambda).toBeCloseTo(0.5 * 0.021 * 0.0000133334 * 1e6 + 0.2, 6);
    // 600 bytes per call: 600e6 / 2^30 GB at $0.50.
    expect(c.logs).toBeCloseTo((600e6 / 1024 ** 3) * 0.5, 6);
    expect(c.total).toBeCloseTo(c.dynamo + c.gateway + c.lambda + c.logs, 9);
  });

  it('an HTTP API costs $2.50 less per million calls than a REST API, nothing else changes', () => {
    const rest = costPerMillion(usage, 'rest');
    const http = costPerMillion(usage, 'http');
    expect(rest.total - http.total).toBeCloseTo(2.5, 9);
    expect(http.gateway).toBe(PRICES.httpApiRequest * 1e6);
  });

  it('a function behind an event source pays no gateway, once per invocation', () => {
    const c = costPerMillion({ ...usage, invocations: 2 }, 'none');
    expect(c.gateway).toBe(0);
    expect(c.lambda).toBeCloseTo(2 * costPerMillion(usage, 'none').lambda, 9);
  });

  it('a mix weighs its routes', () => {
    const read = { ...usage, route: 'GET /x', writeUnits: 1, readUnits: 1 };
    const mix = mixCost([usage, read], { 'POST /api/transfers': 0.25, 'GET /x': 0.75 });
    expect(mix).toBeCloseTo(0.25 * costPerMillion(usage).total + 0.75 * costPerMillion(read).total, 9);
  });

  it('the webhook pipeline per note write: two invocations, its units, SQS requests and logs', () => {
    const p = {
      routerInvocations: 1,
      deliveryInvocations: 1,
      routerMs: 15,
      deliveryMs: 100,
      memoryMb: 512,
      readUnits: 2,
      writeUnits: 1,
      sqsRequests: 3,
      logBytes: 0,
    };
    const lambda = 0.5 * 0.015 * 0.0000133334 * 1e6 + 0.2 + (0.5 * 0.1 * 0.0000133334 * 1e6 + 0.2);
    expect(pipelinePerMillion(p)).toBeCloseTo(lambda + 2 * 0.125 + 0.625 + 3 * 0.4, 6);
  });

  it('a workspace without webhooks: no invocation, nothing to pay; a batch of writes shares one router call', () => {
    const none = {
      routerInvocations: 0,
      deliveryInvocations: 0,
      routerMs: 0,
      deliveryMs: 0,
      memoryMb: 512,
      readUnits: 0,
      writeUnits: 0,
      sqsRequests: 0,
      logBytes: 0,
    };
    expect(pipelinePerMillion(none)).toBe(0);
    // Ten writes in one router batch: a tenth of its request charge per write.
    expect(pipelinePerMillion({ ...none, routerInvocations: 0.1, routerMs: 15 })).toBeCloseTo(
      0.1 * (0.5 * 0.015 * 0.0000133334 * 1e6 + 0.2),
      9,
    );
  });
});
