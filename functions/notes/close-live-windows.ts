// The live windows' queue: each message is the check of one note's window of live writes, delivered
// at the window's end (lib/notes/webhooks/events/live-window.ts); it routes the window's one
// note.updated. A failure fails the batch: SQS offers it again (the same event ids), then the
// dead-letter queue takes it.
import type { SQSEvent } from 'aws-lambda';
import { liveWindows } from '#lib/notes/webhooks/events/wiring.ts';

export const handler = async (event: SQSEvent): Promise<void> => {
  await liveWindows().close(event.Records.map((r) => JSON.parse(r.body)));
};
