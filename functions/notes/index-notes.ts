// DynamoDB stream of the table, filtered to note META items: each changed note's current state into
// its workspace's search index (docs/search.md). A failure fails the batch: the stream retries it
// (bisected), and applying a note twice changes nothing, so no edit is lost.
import '#lib/notes/search/embedded.ts';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { indexTableChanges } from '#lib/notes/search/wiring.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await indexTableChanges(event.Records);
};
