// The delivery queue: each message is one event for one webhook, delivered (signed, logged, retried
// later through the queue) on its own; a message whose delivery threw is reported, so SQS offers it
// again after its visibility timeout (and the dead-letter queue takes it after five receives).
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { webhookDelivery } from '#lib/notes/webhooks/events/wiring.ts';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => ({
  batchItemFailures: await webhookDelivery().deliverBatch(
    event.Records.map((r) => ({ id: r.messageId, body: r.body })),
  ),
});
