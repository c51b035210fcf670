// The stack's code sends refused (its hourly limit reached, lib/bank/sends.ts) as a CloudWatch
// metric in the embedded metric format: one JSON line on stdout (Lambda's log agent turns it into
// the metric; no SDK client). Namespace TriApi/Bank, dimension Table (one stack's table), metric
// CodeSendsRefused; template.yaml's BankCodeSendsRefusedAlarm fires on it.
import { config } from '../../config.ts';

export const BANK_METRICS_NAMESPACE = 'TriApi/Bank';

export function sendsRefusedLine(channel: string, now = Date.now()): string {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: BANK_METRICS_NAMESPACE,
          Dimensions: [['Table']],
          Metrics: [{ Name: 'CodeSendsRefused', Unit: 'Count' }],
        },
      ],
    },
    Table: config.tableName,
    Channel: channel,
    CodeSendsRefused: 1,
  });
}

export const emitSendsRefused = (channel: string): void => {
  process.stdout.write(`${sendsRefusedLine(channel)}\n`);
};
