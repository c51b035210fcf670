// DynamoDB stream of the table, filtered to note META, version, comment and webhook items: the
// changes that are webhook events (note.*, version.created, comment.*, ping) become delivery jobs.
// A failure fails the batch: the stream retries it (bisected), so no event is lost.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { webhookEvents } from '#lib/notes/webhooks/events/wiring.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await webhookEvents().route(event.Records);
};
