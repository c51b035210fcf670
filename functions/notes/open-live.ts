// POST /v1/notes/{noteId}/live (extension): a single-use WebSocket URL (60 s) for live editing of the
// note, with the caller's access (write or read); 403/404 as GetNote (docs/live.md).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { notePath } from '#lib/notes/kernel/params.ts';
import { liveOpening } from '#lib/notes/live/wiring.ts';

export const handler = notesOperation({ path: notePath }, async ({ principal, path }) =>
  created(await liveOpening().open(principal, path.noteId)),
);
