// PATCH /v1/teams/{teamPath}/notes/{noteId}: change the fields sent; If-Match honoured (UpdateTeamNote in the Notes interface document).
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderPaths } from '#lib/notes/folders/wiring.ts';
import { ifMatch, singleNote } from '#lib/notes/notes/http.ts';
import { noteChanges } from '#lib/notes/notes/schemas.ts';
import { teamNotePath } from '#lib/notes/kernel/params.ts';
import { noteUpdater } from '#lib/notes/wiring.ts';

export const handler = notesOperation(
  { path: teamNotePath, body: { schema: noteChanges } },
  async ({ principal, path, body, headers }) => {
    const updated = await noteUpdater().updateNote(principal.userId, path.noteId, body, {
      teamPath: path.teamPath,
      precondition: ifMatch(headers),
    });
    return singleNote(updated, await folderPaths().pathsFor(principal.userId, [updated.note]));
  },
);
