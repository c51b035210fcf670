// zod schemas that only describe the Notes API: its responses and the create body as a client may send
// it. infra/openapi/notes.ts generates openapi/notes.json from them (and the tests check responses
// against that document); no function imports this module, so no cold start builds them.
import * as z from 'zod/mini';
import { order } from './folder-schemas.ts';
import { PUBLISH_TYPES } from './model.ts';
import { noteCreation, role } from './schemas.ts';

/** The same body as documented (what a client may send). */
export const createNoteBodyDocumented = z.union([
  z.string().check(z.describe('The note content')),
  noteCreation,
]);

// ---- notes, users, teams ----
export const simpleUserProfile = z.strictObject({
  name: z.string(),
  userPath: z.string(),
  photo: z.string(),
  biography: z.nullable(z.string()),
});
export const folderPath = z.strictObject({
  id: z.string(),
  name: z.string(),
  icon: z.string(),
  color: z.string(),
  parentId: z.string(),
  clientId: z.string(),
});

export const note = z.object({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  description: z.string(),
  createdAt: z.number().check(z.describe('epoch milliseconds')),
  lastChangedAt: z.number().check(z.describe('epoch milliseconds of the last change of any field')),
  titleUpdatedAt: z
    .nullable(z.number())
    .check(z.describe('epoch milliseconds; null until the title changes')),
  tagsUpdatedAt: z.nullable(z.number()).check(z.describe('epoch milliseconds; null until the tags change')),
  lastChangeUser: z.nullable(simpleUserProfile).check(z.describe('the last user who changed the content')),
  publishType: z.enum(PUBLISH_TYPES),
  publishedAt: z.nullable(z.number()),
  userPath: z.nullable(z.string()).check(z.describe('owner path of a personal note; null for team notes')),
  teamPath: z.nullable(z.string()).check(z.describe('team path of a team note; null for personal notes')),
  permalink: z.nullable(z.string()),
  publishLink: z.string(),
  shortId: z.string(),
  readPermission: role,
  writePermission: role,
  folderPaths: z.optional(z.array(folderPath)),
});
export const singleNote = z.extend(note, { content: z.string() });

export const team = z.strictObject({
  id: z.string(),
  ownerId: z.string(),
  name: z.string(),
  logo: z.string(),
  path: z.string(),
  description: z.nullable(z.string()),
  visibility: z.enum(['public', 'private']),
  upgraded: z.boolean(),
  createdAt: z.number(),
});
export const user = z.strictObject({
  id: z.string(),
  email: z.nullable(z.string()),
  name: z.string(),
  userPath: z.string(),
  photo: z.string(),
  teams: z.array(team),
  Teams: z.optional(z.array(team)),
  upgraded: z.boolean(),
});
export const imageUploadResponse = z.object({ data: z.object({ link: z.string() }) });

export const restError = z.object({
  code: z.number().check(z.int()),
  message: z.string(),
  description: z.string(),
  errors: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
});

// ---- folders ----
export const apiFolder = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  icon: z.nullable(z.string()),
  color: z.nullable(z.string()),
  parentFolderId: z.nullable(z.string()),
  createdAt: z.number().check(z.describe('epoch milliseconds')),
  updatedAt: z.number().check(z.describe('epoch milliseconds')),
});
export const apiFolderOrder = order;

// ---- trash ----
export const apiTrashNote = z.strictObject({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  deletedAt: z.number().check(z.describe('epoch milliseconds')),
  ownerId: z.string().check(z.describe("the note's owner; for a team note, the team's owner")),
  teamId: z.nullable(z.string()),
  shortId: z.string(),
  publishType: z.string(),
  permanentDeletedAt: z
    .nullable(z.number())
    .check(z.describe('epoch milliseconds when the note is purged for good')),
});
export const trashBatchResult = z
  .record(
    z.string(),
    z.strictObject({
      status: z.enum(['success', 'failure']),
      reason: z.optional(z.enum(['NOT_FOUND', 'PERMISSION_DENIED', 'INTERNAL_ERROR'])),
    }),
  )
  .check(z.describe('note id → outcome'));
