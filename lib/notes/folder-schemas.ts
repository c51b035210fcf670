// zod schemas of the folder routes (HackMD API v1 User/Team Folders): requests validated by the
// middleware, responses documented in openapi/notes.json.
import { z } from 'zod';
import { MAX_FOLDER_DESCRIPTION, MAX_FOLDER_NAME, MAX_FOLDERS } from './folders.ts';

const folderId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a folder id');
const teamPath = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path');
export const folderPath = z.object({ folderId });
export const teamFolderPath = z.object({ teamPath, folderId });

const color = z
  .string()
  .regex(/^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be #RGB, #RGBA, #RRGGBB or #RRGGBBAA')
  .describe('Display color in hexadecimal');
const icon = z
  .string()
  .regex(
    /^[0-9A-Fa-f]{2,6}(-[0-9A-Fa-f]{2,6}){0,7}$/,
    'must be an emoji codepoint string such as 1F525 or 2764-FE0F',
  )
  .describe('Emoji unified codepoint string, e.g. 1F525');
const name = z
  .string()
  .max(MAX_FOLDER_NAME)
  .describe(`Folder name (at most ${MAX_FOLDER_NAME}; "" or absent: Untitled)`);
const description = z.string().max(MAX_FOLDER_DESCRIPTION);
const parent = z.string().max(128).describe('Parent folder id; "" = the top level');

export const folderCreation = z
  .strictObject({ name, description, icon, color, parentFolderId: parent })
  .partial();
export const folderChanges = z
  .strictObject({
    name,
    description: description.nullable(),
    icon: icon.nullable(),
    color: color.nullable(),
    parentFolderId: parent.nullable().describe('New parent folder id; null or "" = the top level'),
  })
  .partial();

const order = z
  .record(z.string(), z.array(z.string()).max(MAX_FOLDERS))
  .describe('Parent folder id (or "root") → ordered ids of its child folders');
export const folderOrderBody = z.strictObject({ order });

/** ListNotes / ListTeamNotes: `folderId` lists the notes directly in that folder. */
export const notesQuery = z.object({ folderId: folderId.optional() });

// ---- responses ----
export const apiFolder = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  parentFolderId: z.string().nullable(),
  createdAt: z.number().describe('epoch milliseconds'),
  updatedAt: z.number().describe('epoch milliseconds'),
});
export const apiFolderOrder = order;

/** CreateFolder body: the creation object, or no body at all (an Untitled folder at the top level). */
export const folderCreationBody = z.preprocess((body) => body ?? {}, folderCreation);
