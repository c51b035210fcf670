// zod schemas of the Notes API: requests (validated by the middleware) and responses (documented in
// openapi/notes.json, generated from these same schemas by infra/openapi/notes.ts).
import * as z from 'zod/mini';
import {
  COMMENT_PERMISSIONS,
  MAX_HISTORY,
  PERMISSION_ROLES,
  PUBLISH_TYPES,
  SUGGEST_EDIT_PERMISSIONS,
} from './model.ts';

// ---- requests ----
const noteId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
const teamPath = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path'));

export const notePath = z.object({ noteId });
export const teamPathOnly = z.object({ teamPath });
export const teamNotePath = z.object({ teamPath, noteId });

const role = z.enum(PERMISSION_ROLES);
/** Content has no schema limit: its size limit is a 413 (MAX_CONTENT_BYTES), checked by the domain. */
export const noteCreation = z.partial(
  z.strictObject({
    title: z.string().check(z.maxLength(256)),
    tags: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(64)),
    description: z.string().check(z.maxLength(4096)),
    content: z.string(),
    readPermission: role,
    writePermission: role,
    commentPermission: z.enum(COMMENT_PERMISSIONS),
    suggestEditPermission: z.enum(SUGGEST_EDIT_PERMISSIONS),
    permalink: z
      .string()
      .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'letters, digits, "_", "." and "-" (at most 100)')),
    parentFolderId: z
      .string()
      .check(z.maxLength(128), z.describe('a folder of the note\'s workspace; "" = the top level')),
    origin: z.string().check(z.maxLength(2048)),
    // `__proto__` cannot be a key of a stored map (JavaScript objects and the DynamoDB marshaller drop it).
    noteFeatures: z.record(
      z.string().check(
        z.maxLength(64),
        z.refine((key) => key !== '__proto__', 'The key __proto__ is reserved'),
      ),
      z.string().check(z.maxLength(64)),
    ),
  }),
);

/** CreateNote body: a JSON string (the content), the creation object, or nothing (an empty note). */
export const createNoteBody = z.pipe(
  z.transform((body: unknown) =>
    body === undefined ? {} : typeof body === 'string' ? { content: body } : body,
  ),
  noteCreation,
);
/** The same body as documented (what a client may send). */
export const createNoteBodyDocumented = z.union([
  z.string().check(z.describe('The note content')),
  noteCreation,
]);

export const noteChanges = z.extend(
  z.pick(noteCreation, {
    title: true,
    tags: true,
    description: true,
    content: true,
    readPermission: true,
    writePermission: true,
    permalink: true,
  }),
  {
    parentFolderId: z.optional(
      z
        .nullable(z.string().check(z.maxLength(128)))
        .check(z.describe('a folder of the note\'s workspace; null or "" = the top level')),
    ),
  },
);

export const historyQuery = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_HISTORY))),
});

/** UploadNoteImage body after multipart parsing: exactly one file part named image. */
export const imageUploadBody = z.strictObject({
  image: z.object({ content: z.instanceof(Buffer) }, 'a file part named image is required'),
});

// ---- responses ----
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
