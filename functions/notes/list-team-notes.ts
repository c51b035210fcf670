// GET /v1/teams/{teamPath}/notes[?folderId=]: the team's notes (or those directly in one of its
// folders), most recently changed first, with their folderPaths (seed 000 ListTeamNotes).
import { restOperation } from '#lib/http/rest.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { notesQuery } from '#lib/notes/folder-schemas.ts';
import { noteList } from '#lib/notes/http/glue.ts';
import { teamPathOnly } from '#lib/notes/schemas.ts';
import { folders, notes } from '#lib/notes/wiring.ts';

export const handler = restOperation(
  { auth: authenticateCounted, path: teamPathOnly, query: notesQuery },
  async ({ principal, path, query }) => {
    const { userId } = principal;
    const list = query.folderId
      ? await folders().notesIn(userId, query.folderId, path.teamPath)
      : await notes().listTeamNotes(userId, path.teamPath);
    return noteList(userId, list);
  },
);
