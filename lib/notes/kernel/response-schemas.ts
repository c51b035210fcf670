// valibot schemas that only describe the Notes API's responses every feature shares (the note, users,
// teams, errors); each feature describes its own beside its schemas (folders/, trash/, notes/,
// revisions/, webhooks/ response-schemas.ts). infra/openapi/notes.ts generates openapi/notes.json from
// them (and the tests check responses against that document); no function imports these modules, so
// no cold start builds them.
// Answers are documented closed (additionalProperties: false, v.strictObject): the API sends no other
// field. Never parsed at runtime, so valibot's own strictObject is fine here (lib/domain/schema.ts).
import * as v from 'valibot';
import { PERMISSION_ROLES, PUBLISH_TYPES } from './model.ts';

export const described = <S extends v.GenericSchema>(s: S, description: string) =>
  v.pipe(s, v.description(description));

// ---- notes, users, teams ----
export const simpleUserProfile = v.strictObject({
  name: v.string(),
  userPath: v.string(),
  photo: v.string(),
  biography: v.nullable(v.string()),
});
export const folderPath = v.strictObject({
  id: v.string(),
  name: v.string(),
  icon: v.string(),
  color: v.string(),
  parentId: v.string(),
  clientId: v.string(),
});

const noteEntries = {
  id: v.string(),
  title: v.string(),
  tags: v.array(v.string()),
  description: v.string(),
  createdAt: described(v.number(), 'epoch milliseconds'),
  lastChangedAt: described(v.number(), 'epoch milliseconds of the last change of any field'),
  titleUpdatedAt: described(v.nullable(v.number()), 'epoch milliseconds; null until the title changes'),
  tagsUpdatedAt: described(v.nullable(v.number()), 'epoch milliseconds; null until the tags change'),
  lastChangeUser: described(v.nullable(simpleUserProfile), 'the last user who changed the content'),
  publishType: v.picklist(PUBLISH_TYPES),
  publishedAt: v.nullable(v.number()),
  userPath: described(v.nullable(v.string()), 'owner path of a personal note; null for team notes'),
  teamPath: described(v.nullable(v.string()), 'team path of a team note; null for personal notes'),
  permalink: v.nullable(v.string()),
  publishLink: v.string(),
  shortId: v.string(),
  readPermission: v.picklist(PERMISSION_ROLES),
  writePermission: v.picklist(PERMISSION_ROLES),
  folderPaths: v.optional(v.array(folderPath)),
};
export const note = v.strictObject(noteEntries);
export const singleNote = v.strictObject({ ...noteEntries, content: v.string() });

export const team = v.strictObject({
  id: v.string(),
  ownerId: v.string(),
  name: v.string(),
  logo: v.string(),
  path: v.string(),
  description: v.nullable(v.string()),
  visibility: v.picklist(['public', 'private']),
  upgraded: v.boolean(),
  createdAt: v.number(),
});
export const user = v.strictObject({
  id: v.string(),
  email: v.nullable(v.string()),
  name: v.string(),
  userPath: v.string(),
  photo: v.string(),
  teams: v.array(team),
  Teams: v.optional(v.array(team)),
  upgraded: v.boolean(),
});
/** CreateNote's 207: the note, created at the top level because its parentFolderId names no folder. */
export const createNoteMultiStatus = v.strictObject({
  note: singleNote,
  error: v.pipe(v.string(), v.description('Why the note is not in the folder asked for')),
});
export const imageUploadResponse = v.strictObject({ data: v.strictObject({ link: v.string() }) });

/**
 * HackMD's members of an error body (lib/notes/kernel/http/dialect.ts), beside the REST dialect's: which
 * ones a response carries depends on its route and status.
 */
export const hackmdErrorEntries = {
  error: v.optional(
    v.pipe(
      v.union([v.string(), v.strictObject({ message: v.string(), code: v.string() })]),
      v.description(
        "HackMD's error (not on a 422): the description; on webhook routes {message, code}, code being the error's type",
      ),
    ),
  ),
  details: v.optional(
    v.pipe(
      v.record(v.string(), v.strictObject({ message: v.string() })),
      v.description("HackMD's details of a 422: each field named in errors[], with its messages"),
    ),
  ),
};

export const restError = v.strictObject({
  code: v.pipe(v.number(), v.integer()),
  message: v.pipe(v.string(), v.description('The status in words; on a 422 HackMD\'s "Validation Failed"')),
  description: v.string(),
  errors: v.optional(v.array(v.strictObject({ field: v.string(), message: v.string() }))),
  ...hackmdErrorEntries,
  error_code: v.optional(v.pipe(v.string(), v.description("Versions routes: the error's type"))),
  errorCode: v.optional(v.pipe(v.string(), v.description("Comments routes: the error's type"))),
});
