// GET /v1/teams/{teamPath}/notes[?folderId=]: the team's notes (or those directly in one of its
// folders), most recently changed first, with their folderPaths (ListTeamNotes in the Notes interface document).
import { notesQuery, teamPathOnly } from '#lib/notes/kernel/params.ts';
import { noteList } from '#lib/notes/notes/http.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderNotes, folderPaths } from '#lib/notes/folders/wiring.ts';
import { noteLister } from '#lib/notes/notes/wiring.ts';

export const handler = notesOperation(
  { path: teamPathOnly, query: notesQuery },
  async ({ principal, path, query }) => {
    const { userId } = principal;
    const { folderId } = query;
    const list = folderId
      ? await folderNotes().notesIn(userId, folderId, path.teamPath)
      : await noteLister().listTeamNotes(userId, path.teamPath);
    return noteList(list, await folderPaths().pathsFor(userId, list));
  },
);
