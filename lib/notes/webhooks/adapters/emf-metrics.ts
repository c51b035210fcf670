// Delivery outcomes as CloudWatch metrics in the embedded metric format: one JSON line on stdout
// per attempt (Lambda's log agent turns it into metrics; no SDK client). Namespace TriApi/Webhooks,
// dimension Outcome; metrics Deliveries (count) and LatencyMs.
import type { Outcome } from '../events/delivery.ts';

export const WEBHOOK_METRICS_NAMESPACE = 'TriApi/Webhooks';

export function emfLine(outcome: Outcome, latencyMs: number | undefined, now = Date.now()): string {
  const metrics = [{ Name: 'Deliveries', Unit: 'Count' }];
  if (latencyMs !== undefined) metrics.push({ Name: 'LatencyMs', Unit: 'Milliseconds' });
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        { Namespace: WEBHOOK_METRICS_NAMESPACE, Dimensions: [['Outcome']], Metrics: metrics },
      ],
    },
    Outcome: outcome,
    Deliveries: 1,
    ...(latencyMs !== undefined ? { LatencyMs: latencyMs } : {}),
  });
}

export const emitDeliveryMetric = (outcome: Outcome, latencyMs?: number): void => {
  process.stdout.write(`${emfLine(outcome, latencyMs)}\n`);
};
