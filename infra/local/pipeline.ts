// The event pipeline of template.yaml, locally: the SQS stand-in (sqs.ts) with the template's
// queues, DynamoDB Local's stream read as Lambda's stream event source mappings do
// (stream-poller.ts), and the queues' event source mappings (queue-poller.ts). The functions reach
// the queues through the real SDK (AWS_ENDPOINT_URL_SQS and their queue variables).
// LOCAL_QUEUE_VISIBILITY_SECONDS shortens the queues' visibility timeout (tests: a crashed delivery
// is offered again within seconds instead of the template's 6 minutes). With `queueDir` (npm start:
// LOCAL_DATA_DIR) the queues' messages are kept there, so pending deliveries survive a restart.
import { eventSourcesOf } from './event-sources.ts';
import type { Lambdas } from './lambdas.ts';
import { startQueuePoller } from './queue-poller.ts';
import { localClientConfig } from './services.ts';
import { startLocalSqs, type LocalSqs } from './sqs.ts';
import { startStreamPoller } from './stream-poller.ts';
import type { Template } from './template.ts';

export interface EventPipeline {
  sqs: LocalSqs;
  /** Per function: invocations by the event sources, their DynamoDB requests, durations and billed units (npm run bench). */
  stats: Map<string, PipelineStats>;
  stop(): Promise<void>;
}

export interface PipelineStats {
  invocations: number;
  requests: number;
  /** Each invocation's duration, ms, in order. */
  durations: number[];
  /** Billed DynamoDB units, counted while a biller is installed (infra/bench/biller.ts). */
  writeUnits: number;
  readUnits: number;
}

export async function startEventPipeline(opts: {
  template: Template;
  lambdas: Lambdas;
  env: Record<string, string>;
  log: (line: string) => void;
  queueDir?: string;
}): Promise<EventPipeline> {
  const visibility = process.env.LOCAL_QUEUE_VISIBILITY_SECONDS;
  const sqs = await startLocalSqs(opts.template, {
    visibilityTimeoutSeconds: visibility ? Number(visibility) : undefined,
    dataDir: opts.queueDir,
  });
  Object.assign(process.env, sqs.env);
  const sources = eventSourcesOf(opts.template);
  const stats = new Map<string, PipelineStats>();
  const invoke = async (id: string, handler: string, event: unknown) => {
    const started = performance.now();
    const outcome = await opts.lambdas.invokeEvent(id, handler, event);
    const s =
      stats.get(id) ??
      stats.set(id, { invocations: 0, requests: 0, durations: [], writeUnits: 0, readUnits: 0 }).get(id)!;
    s.invocations += 1;
    s.durations.push(performance.now() - started);
    if (outcome.kind === 'ok') {
      s.requests += outcome.meter.requests;
      s.writeUnits += outcome.meter.writeUnits ?? 0;
      s.readUnits += outcome.meter.readUnits ?? 0;
    }
    return outcome;
  };
  const queues = startQueuePoller({ queues: sqs.queues, sources: sources.queues, invoke, log: opts.log });
  let stream: { stop(): Promise<void> } = { stop: async () => {} };
  const endpoint = opts.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (endpoint && opts.env.TABLE_NAME) {
    try {
      stream = await startStreamPoller({
        endpoint,
        tableName: opts.env.TABLE_NAME,
        sources: sources.streams,
        invoke,
        queues: sqs.queues,
        log: opts.log,
        clientConfig: localClientConfig(endpoint),
      });
    } catch (err) {
      // No table (or no stream) to read: the APIs still run; events are not produced.
      opts.log(`table stream not read (${(err as Error).message}): no webhook events`);
    }
  }
  return {
    sqs,
    stats,
    stop: async () => {
      await stream.stop();
      await queues.stop();
      await sqs.close();
    },
  };
}
