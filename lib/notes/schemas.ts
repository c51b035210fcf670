// zod schemas of the note request bodies, validated by the middleware; path and query parameters are
// in params.ts. What only describes (responses, the documented create body) is in
// response-schemas.ts, which no function bundles: building schemas is init work every cold start
// pays. openapi/notes.json is generated from all of them (infra/openapi/notes.ts).
import * as z from 'zod/mini';
import { COMMENT_PERMISSIONS, PERMISSION_ROLES, SUGGEST_EDIT_PERMISSIONS } from './model.ts';

export const role = z.enum(PERMISSION_ROLES);
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

/** UploadNoteImage body after multipart parsing: exactly one file part named image. */
export const imageUploadBody = z.strictObject({
  image: z.object({ content: z.instanceof(Buffer) }, 'a file part named image is required'),
});
