// DynamoDB stream of the table, filtered to live updates, note META changes and team membership
// removals: live text into the note (within about 2 s) and compaction; connections closed or made
// read-only when access changed (within about 2 s); a purged note's live document removed.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { liveChanges, liveChangesOf } from '#lib/notes/wiring.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  const changes = liveChangesOf(event.Records);
  for (const shortId of changes.flush) await liveChanges().flush(shortId);
  for (const shortId of changes.recheckNotes) await liveChanges().recheck({ shortId });
  for (const userId of changes.recheckUsers) await liveChanges().recheck({ userId });
  for (const shortId of changes.purged) await liveChanges().purged(shortId);
};
