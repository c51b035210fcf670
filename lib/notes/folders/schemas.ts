// valibot schemas of the folder request bodies (HackMD API v1 User/Team Folders), validated by the
// middleware; their paths are in ../kernel/params.ts, their responses in ./response-schemas.ts.
import * as v from 'valibot';
import { object, partial, record } from '../../domain/schema.ts';
import { MAX_FOLDER_DESCRIPTION, MAX_FOLDER_NAME, MAX_FOLDERS } from './folders.ts';

const color = v.pipe(
  v.string(),
  v.regex(/^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be #RGB, #RGBA, #RRGGBB or #RRGGBBAA'),
  v.description('Display color in hexadecimal'),
);
const icon = v.pipe(
  v.string(),
  v.regex(
    /^[0-9A-Fa-f]{2,6}(-[0-9A-Fa-f]{2,6}){0,7}$/,
    'must be an emoji codepoint string such as 1F525 or 2764-FE0F',
  ),
  v.description('Emoji unified codepoint string, e.g. 1F525'),
);
const name = v.pipe(
  v.string(),
  v.maxLength(MAX_FOLDER_NAME),
  v.description(`Folder name (at most ${MAX_FOLDER_NAME}; "" or absent: Untitled)`),
);
const description = v.pipe(v.string(), v.maxLength(MAX_FOLDER_DESCRIPTION));
const parent = v.pipe(v.string(), v.maxLength(128), v.description('Parent folder id; "" = the top level'));

export const folderCreation = object(partial({ name, description, icon, color, parentFolderId: parent }));
export const folderChanges = object(
  partial({
    name,
    description: v.nullable(description),
    icon: v.nullable(icon),
    color: v.nullable(color),
    parentFolderId: v.pipe(
      v.nullable(parent),
      v.description('New parent folder id; null or "" = the top level'),
    ),
  }),
);

export const order = v.pipe(
  record(v.string(), v.pipe(v.array(v.string()), v.maxLength(MAX_FOLDERS))),
  v.description('Parent folder id (or "root") → ordered ids of its child folders'),
);
export const folderOrderBody = object({ order });

/** CreateFolder body: the creation object, or no body at all (an Untitled folder at the top level). */
export const folderCreationBody = v.pipe(
  v.unknown(),
  v.transform((body: unknown) => body ?? {}),
  folderCreation,
);
