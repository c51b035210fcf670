// DynamoDB stream of the table, filtered to live updates, note META changes and team membership
// removals: live text into the note (within about 2 s) and compaction; connections closed or made
// read-only when access changed (within about 2 s); a purged note's live document removed. The
// notes of a batch are worked on concurrently (bounded); a note whose work fails is reported as a
// partial batch failure (retried a few times, then the dead-letter queue) and holds no other back.
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { liveChanges } from '#lib/notes/wiring.ts';
import { liveChangesOf, runStreamTasks, streamTasksOf } from '#lib/notes/live/wiring.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => ({
  batchItemFailures: await runStreamTasks(streamTasksOf(liveChangesOf(event.Records), liveChanges()), {
    failed: (task, err) => console.error(`live stream: ${task.what} failed: ${(err as Error)?.stack ?? err}`),
  }),
});
