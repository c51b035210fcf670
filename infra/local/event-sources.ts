// The event source mappings of template.yaml (Events of Type DynamoDB and SQS), as the runner
// reads them: which function, batch size, retries, bisection, filters, failure destination.
import type { Template } from './template.ts';

export interface StreamSource {
  functionId: string;
  handler: string;
  batchSize: number;
  maxRetries: number;
  bisect: boolean;
  filters: string[];
  /** Logical id of the SQS queue that gets a record of a batch given up on. */
  onFailureQueue?: string;
  /** FunctionResponseTypes: [ReportBatchItemFailures] (a partial batch response). */
  reportBatchItemFailures?: boolean;
}

export interface QueueSource {
  functionId: string;
  handler: string;
  /** Logical id of the queue. */
  queue: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
  maxConcurrency: number;
}

/** The export a function's Handler names (`file.handler` → `handler`). */
const handlerOf = (res: { Properties?: Record<string, any> }) =>
  String(res.Properties?.Handler ?? 'index.handler')
    .split('.')
    .pop() ?? 'handler';

export function eventSourcesOf(template: Template): { streams: StreamSource[]; queues: QueueSource[] } {
  const streams: StreamSource[] = [];
  const queues: QueueSource[] = [];
  for (const [id, res] of Object.entries(template.Resources)) {
    if (res.Type !== 'AWS::Serverless::Function') continue;
    for (const ev of Object.values<any>(res.Properties?.Events ?? {})) {
      const p = ev.Properties ?? {};
      if (ev.Type === 'DynamoDB')
        streams.push({
          functionId: id,
          handler: handlerOf(res),
          batchSize: Number(p.BatchSize ?? 100),
          maxRetries: Number(p.MaximumRetryAttempts ?? 10_000),
          bisect: p.BisectBatchOnFunctionError === true,
          filters: (p.FilterCriteria?.Filters ?? []).map((f: { Pattern: string }) => f.Pattern),
          onFailureQueue: p.DestinationConfig?.OnFailure?.Destination?.['Fn::GetAtt']?.[0],
          reportBatchItemFailures: (p.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
        });
      if (ev.Type === 'SQS')
        queues.push({
          functionId: id,
          handler: handlerOf(res),
          queue: p.Queue?.['Fn::GetAtt']?.[0],
          batchSize: Number(p.BatchSize ?? 10),
          reportBatchItemFailures: (p.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
          maxConcurrency: Number(p.ScalingConfig?.MaximumConcurrency ?? 5),
        });
    }
  }
  return { streams, queues };
}
