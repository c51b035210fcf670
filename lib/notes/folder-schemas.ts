// zod schemas of the folder request bodies (HackMD API v1 User/Team Folders), validated by the
// middleware; their paths are in params.ts, their responses in response-schemas.ts.
import * as z from 'zod/mini';
import { MAX_FOLDER_DESCRIPTION, MAX_FOLDER_NAME, MAX_FOLDERS } from './folders.ts';

const color = z
  .string()
  .check(
    z.regex(
      /^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
      'must be #RGB, #RGBA, #RRGGBB or #RRGGBBAA',
    ),
    z.describe('Display color in hexadecimal'),
  );
const icon = z
  .string()
  .check(
    z.regex(
      /^[0-9A-Fa-f]{2,6}(-[0-9A-Fa-f]{2,6}){0,7}$/,
      'must be an emoji codepoint string such as 1F525 or 2764-FE0F',
    ),
    z.describe('Emoji unified codepoint string, e.g. 1F525'),
  );
const name = z
  .string()
  .check(
    z.maxLength(MAX_FOLDER_NAME),
    z.describe(`Folder name (at most ${MAX_FOLDER_NAME}; "" or absent: Untitled)`),
  );
const description = z.string().check(z.maxLength(MAX_FOLDER_DESCRIPTION));
const parent = z.string().check(z.maxLength(128), z.describe('Parent folder id; "" = the top level'));

export const folderCreation = z.partial(
  z.strictObject({ name, description, icon, color, parentFolderId: parent }),
);
export const folderChanges = z.partial(
  z.strictObject({
    name,
    description: z.nullable(description),
    icon: z.nullable(icon),
    color: z.nullable(color),
    parentFolderId: z.nullable(parent).check(z.describe('New parent folder id; null or "" = the top level')),
  }),
);

export const order = z
  .record(z.string(), z.array(z.string()).check(z.maxLength(MAX_FOLDERS)))
  .check(z.describe('Parent folder id (or "root") → ordered ids of its child folders'));
export const folderOrderBody = z.strictObject({ order });

/** CreateFolder body: the creation object, or no body at all (an Untitled folder at the top level). */
export const folderCreationBody = z.pipe(
  z.transform((body: unknown) => body ?? {}),
  folderCreation,
);
