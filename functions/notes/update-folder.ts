// PATCH /v1/folders/{folderId}: rename, restyle or move a folder (202) (HackMD UpdateFolder).
import { accepted } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderChanges } from '#lib/notes/folders/schemas.ts';
import { folderPath } from '#lib/notes/kernel/params.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { folderUpdater } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation(
  { path: folderPath, body: { schema: folderChanges } },
  async ({ principal, path, body }) => {
    const folder = await folderUpdater().update(principal.userId, path.folderId, body);
    return accepted(presentFolder(folder));
  },
);
