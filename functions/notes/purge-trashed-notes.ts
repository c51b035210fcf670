// DynamoDB stream of the table, filtered to TTL removals of trashed notes' META items: purges what
// is left of each note, its images included. Locally `npm run admin -- purge-trash` runs the same purge.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { expiredNotesOf, trashPurger } from '#lib/notes/trash/wiring.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const note of expiredNotesOf(event)) await trashPurger().purge(note);
};
