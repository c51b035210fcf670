// POST /v1/teams/{teamPath}/notes/{noteId}/live (extension): the team form of OpenLive (docs/live.md).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamNotePath } from '#lib/notes/kernel/params.ts';
import { liveOpening } from '#lib/notes/live/wiring.ts';

export const handler = notesOperation({ path: teamNotePath }, async ({ principal, path }) =>
  created(await liveOpening().open(principal, path.noteId, path.teamPath)),
);
