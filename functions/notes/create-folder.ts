// POST /v1/folders: a folder in the caller's workspace (201) (HackMD CreateFolder).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { folderCreationBody } from '#lib/notes/folders/schemas.ts';
import { presentFolder } from '#lib/notes/folders/folders.ts';
import { folderCreator } from '#lib/notes/folders/wiring.ts';

export const handler = notesOperation(
  { body: { schema: folderCreationBody, optional: true } },
  async ({ principal, body }) => {
    const folder = await folderCreator().create(principal.userId, body);
    return created(presentFolder(folder));
  },
);
