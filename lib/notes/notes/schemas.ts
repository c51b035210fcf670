// valibot schemas of the note request bodies, validated by the middleware; path and query parameters
// are in ../kernel/params.ts. What only describes (responses, the documented create body) is in
// ../kernel/response-schemas.ts, which no function bundles: building schemas is init work every cold start
// pays. openapi/notes.json is generated from all of them (infra/openapi/notes.ts).
import * as v from 'valibot';
import { object, partial, record, strictObject, typeName } from '../../domain/schema.ts';
import { COMMENT_PERMISSIONS, PERMISSION_ROLES, SUGGEST_EDIT_PERMISSIONS } from '../kernel/model.ts';

export const role = v.picklist(PERMISSION_ROLES);
const parentFolderId = v.pipe(
  v.string(),
  v.maxLength(128),
  v.description('a folder of the note\'s workspace; "" = the top level'),
);
/** Content has no schema limit: its size limit is a 413 (MAX_CONTENT_BYTES), checked by the domain. */
const creationEntries = {
  title: v.pipe(v.string(), v.maxLength(256)),
  tags: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(64))), v.maxLength(64)),
  description: v.pipe(v.string(), v.maxLength(4096)),
  content: v.string(),
  readPermission: role,
  writePermission: role,
  commentPermission: v.picklist(COMMENT_PERMISSIONS),
  suggestEditPermission: v.picklist(SUGGEST_EDIT_PERMISSIONS),
  permalink: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'letters, digits, "_", "." and "-" (at most 100)'),
  ),
  parentFolderId,
  origin: v.pipe(v.string(), v.maxLength(2048)),
  // `__proto__` cannot be a key of a stored map (JavaScript objects and the DynamoDB marshaller drop it).
  noteFeatures: record(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.check((key) => key !== '__proto__', 'The key __proto__ is reserved'),
    ),
    v.pipe(v.string(), v.maxLength(64)),
  ),
};
export const noteCreation = object(partial(creationEntries));

/** CreateNote body: a JSON string (the content), the creation object, or nothing (an empty note). */
export const createNoteBody = v.pipe(
  v.unknown(),
  v.transform((body: unknown) =>
    body === undefined ? {} : typeof body === 'string' ? { content: body } : body,
  ),
  noteCreation,
);

const { title, tags, description, content, readPermission, writePermission, permalink } = creationEntries;
export const noteChanges = object({
  ...partial({ title, tags, description, content, readPermission, writePermission, permalink }),
  parentFolderId: v.optional(
    v.pipe(
      v.nullable(v.pipe(v.string(), v.maxLength(128))),
      v.description('a folder of the note\'s workspace; null or "" = the top level'),
    ),
  ),
});

/**
 * UploadNoteImage body after multipart parsing: exactly one file part named image. A text field, or
 * a file part and a field both named image (an array), is not a file part; a part without content
 * names content as a missing Buffer.
 */
const fileRequired = 'a file part named image is required';
export const imageUploadBody = strictObject({
  image: v.pipe(
    v.custom<object>(
      (part) => typeof part === 'object' && part !== null && !Array.isArray(part),
      fileRequired,
    ),
    v.object({ content: v.instance(Buffer) }, (issue) =>
      issue.path ? `Invalid input: expected Buffer, received ${typeName(issue.input)}` : fileRequired,
    ),
  ),
});
