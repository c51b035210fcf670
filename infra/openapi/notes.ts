// OpenAPI 3.1 document of the Notes API (the Notes interface document), generated from the valibot schemas that validate
// requests (lib/notes/kernel/params.ts, lib/notes/*schemas.ts) and those that describe responses (lib/notes/kernel/response-schemas.ts).
import type * as v from 'valibot';
import { ApiError, ERRORS, type ErrorType, type FieldError } from '../../lib/http/errors.ts';
import { hackmdMembers } from '../../lib/notes/kernel/http/dialect.ts';
import { MAX_CONTENT_BYTES, MAX_HISTORY, MAX_IMAGE_BYTES } from '../../lib/notes/kernel/model.ts';
import * as f from '../../lib/notes/folders/schemas.ts';
import { MAX_FOLDER_DEPTH, MAX_FOLDERS } from '../../lib/notes/folders/folders.ts';
import * as params from '../../lib/notes/kernel/params.ts';
import * as r from '../../lib/notes/kernel/response-schemas.ts';
import * as fr from '../../lib/notes/folders/response-schemas.ts';
import * as nr from '../../lib/notes/notes/response-schemas.ts';
import * as tr from '../../lib/notes/trash/response-schemas.ts';
import * as s from '../../lib/notes/notes/schemas.ts';
import * as t from '../../lib/notes/trash/schemas.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../lib/domain/idempotency.ts';
import { document, inputSchema, json, type PathItem, type RoutedOperation, schema } from './build.ts';
import { NOTES_ROUTES } from '../../functions/notes/routes.ts';
import { errorCodeSchema, restErrorResponse } from './rest-errors.ts';
import { pagePaths } from './notes-pages.ts';
import { revisionPaths, revisionSchemas } from './notes-revisions.ts';
import { livePaths, liveSchemas } from './notes-live.ts';
import { searchPaths, searchSchemas } from './notes-search.ts';
import { webhookEvents, webhookRoutes, webhookSchemas } from './notes-webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The Notes tags (HackMD's names); the document lists those its operations use. */
const TAGS = {
  Profile: 'The caller (the owner of the token)',
  Teams: 'Teams the caller belongs to',
  History: 'Notes the caller read or changed',
  'User Notes': "The caller's personal notes and their images",
  'Team Notes': "A team's notes (members)",
  'User Folders': "Folders of the caller's workspace",
  'Team Folders': "Folders of a team's workspace",
  Trash: 'Deleted notes, restorable for the retention period',
  Versions: "A note's versions",
  Comments: "A note's comments",
  Webhooks: 'Webhooks of the personal workspace',
  'Team Webhooks': 'Webhooks of a team workspace',
  Pages: "Read-only HTML pages of guest-readable notes, at each note's publishLink (no token)",
  Search: 'Full-text search of the notes the caller may read (extension)',
} as const;
/** A Notes operation: its description and responses are required, the rest comes from its row (build.ts). */
export type NotesOperation = RoutedOperation;

const ERROR_DESCRIPTIONS: Partial<Record<ErrorType, string>> = {
  bad_request: 'A path or query parameter is invalid (named in errors[])',
  unauthorized: 'Missing, malformed, unknown or revoked token (WWW-Authenticate: Bearer)',
  forbidden: 'Not a member of the team, or not allowed to change this note or these fields',
  not_found: 'No such note (or folder) the caller may read, or no such team',
  conflict:
    'The permalink is used by another note of the same owner, a folder still holds folders or notes, ' +
    'or the resource kept changing concurrently; on a create, the Idempotency-Key was used for ' +
    'another request or its first request is still in flight',
  precondition_failed: 'If-Match does not list the current ETag',
  payload_too_large: `content over ${MAX_CONTENT_BYTES} bytes of UTF-8, or an image over ${MAX_IMAGE_BYTES} bytes (named in errors[])`,
  unsupported_media_type: 'Wrong request content type, or an image that is not PNG, JPEG, GIF or WebP',
  validation_failed:
    'Malformed JSON or invalid body fields (each named in errors[] and details; fields the API does not know ' +
    'are ignored); a folder with an unknown parentFolderId; a folder move making a cycle or nesting too deep',
  internal_error: 'Unexpected server failure',
  service_unavailable:
    'A dependency did not answer in time or throttled: retry after Retry-After seconds (creates: with the same Idempotency-Key)',
};
const rateHeaders = {
  'X-RateLimit-UserLimit': {
    description: 'Calls the token may make per window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-UserRemaining': {
    description: 'Calls left in the current window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-UserReset': {
    description: 'Epoch seconds when the window starts over',
    schema: { type: 'integer' },
  },
};
/** HackMD's members of the example (lib/notes/kernel/http/dialect.ts) on a route of this `resource`. */
const hackmd =
  (type: ErrorType, resource: string) => (example: { description: string; errors?: FieldError[] }) =>
    hackmdMembers(new ApiError(type, example.description, { fields: example.errors }), resource);
const tooManyRequests = (resource: string) =>
  restErrorResponse(
    'too_many_requests',
    "Over the token's rate limit for the current window",
    {
      'Retry-After': { description: 'Seconds until the window starts over', schema: { type: 'integer' } },
      ...rateHeaders,
    },
    hackmd('too_many_requests', resource),
  );
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } },
};
/**
 * Every operation can answer 401, 429 (the token's rate limit), 500 and 503 besides its own errors;
 * the examples carry HackMD's members of routes like `resource`.
 */
const errorsOn =
  (resource: string) =>
  (...types: ErrorType[]) => ({
    ...Object.fromEntries(
      [...types, 'unauthorized', 'internal_error', 'service_unavailable'].map((t) => [
        String(ERRORS[t as ErrorType].status),
        restErrorResponse(
          t as ErrorType,
          ERROR_DESCRIPTIONS[t as ErrorType]!,
          t === 'service_unavailable' ? retryAfter : undefined,
          hackmd(t as ErrorType, resource),
        ),
      ]),
    ),
    429: tooManyRequests(resource),
  });
const errors = errorsOn('/v1/notes');

const validatorHeaders = {
  ETag: { description: 'Entity tag of the note version', schema: { type: 'string' } },
  'Last-Modified': { description: 'lastChangedAt as an HTTP date', schema: { type: 'string' } },
};
const singleNoteOk = (description: string) => ({
  ...json(ref('SingleNote'), description),
  headers: validatorHeaders,
});
const notModified = {
  description:
    'Not modified: If-None-Match lists the ETag, or (without it) If-Modified-Since is not older than the note',
  headers: validatorHeaders,
};
const noteList = (description: string) => json({ type: 'array', items: ref('Note') }, description);

const pathParams = (p: v.GenericSchema) =>
  Object.entries(inputSchema(p).properties as Record<string, unknown>).map(([name, sch]) => ({
    name,
    in: 'path',
    required: true,
    schema: sch,
  }));
const conditionalHeaders = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
];
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'Update only if the note still has this ETag (412 otherwise)',
};

const createBody = {
  required: false,
  description:
    'A JSON string (the content), an object of creation properties, or no body (an empty note). ' +
    'Defaults: readPermission and writePermission owner, commentPermission and suggestEditPermission ' +
    'signed_in_users.',
  content: { 'application/json': { schema: ref('NoteCreation') } },
};
const changesBody = { required: true, content: { 'application/json': { schema: ref('NoteChanges') } } };

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  description:
    'Makes a retry safe (e.g. after a timeout or a 503, whose write may have committed): the first ' +
    'successful response is stored for 24 hours and replayed (Idempotent-Replayed: true) for the ' +
    'same key, path and body; another body, or a request still in flight, is 409. Keys are per ' +
    'caller.',
};
/** Personal or team: who may do it. */
const scope = (team: boolean) => ({
  who: team ? 'Members of the team (403 for others, 404 for an unknown team).' : '',
});

const createNote = (params: unknown[], team = false): NotesOperation => ({
  description: [
    'The body is the content as a JSON string, an object of creation properties, or empty (an empty note).',
    'The title is the explicit `title`, else the first `# ` heading, else Untitled; a `###### tags:` line sets the tags.',
    'readPermission and writePermission default to owner; write may not be broader than read (422 naming',
    'writePermission), except that a body sending writePermission alone widens readPermission to match, as',
    "HackMD's editor does. Send an Idempotency-Key to make a retry safe.",
    scope(team).who,
  ].join(' '),
  parameters: [...params, idempotencyKey],
  requestBody: createBody,
  responses: {
    200: singleNoteOk('The created note'),
    207: {
      ...json(
        ref('CreateNoteMultiStatus'),
        'The note was created at the top level of its workspace: its parentFolderId names no folder there (error says so)',
      ),
      headers: validatorHeaders,
    },
    ...errors(
      'bad_request',
      'forbidden',
      'not_found',
      'conflict',
      'payload_too_large',
      'unsupported_media_type',
      'validation_failed',
    ),
  },
});
const getNote = (params: unknown[], team = false): NotesOperation => ({
  description: [
    "The note with its content, addressed by its id or shortId. Recorded in the caller's history (a 304 too).",
    'Conditional: If-None-Match (weak comparison) wins over If-Modified-Since; either can answer 304.',
    team ? scope(team).who : 'A note the caller may not read is 404, as if it did not exist.',
  ].join(' '),
  parameters: [...params, ...conditionalHeaders],
  responses: {
    200: singleNoteOk("The note (recorded in the caller's history)"),
    304: notModified,
    ...errors('bad_request', 'forbidden', 'not_found'),
  },
});
const updateNote = (params: unknown[], team = false): NotesOperation => ({
  description: [
    'Only the fields sent change. Content, title, tags and description need write access;',
    'permissions, permalink and parentFolderId need the owner (a team note: any member). With If-Match the update',
    'happens only if the note still has that ETag (412 otherwise); without it a concurrent change is merged.',
    'A writePermission sent alone, broader than readPermission, widens readPermission to match.',
    scope(team).who,
  ].join(' '),
  parameters: [...params, ifMatch],
  requestBody: changesBody,
  responses: {
    200: singleNoteOk('The updated note'),
    ...errors(
      'bad_request',
      'forbidden',
      'not_found',
      'conflict',
      'precondition_failed',
      'payload_too_large',
      'unsupported_media_type',
      'validation_failed',
    ),
  },
});
const deleteNote = (params: unknown[]): NotesOperation => ({
  description: [
    'Moves the note, its images and history to the trash, restorable for the retention period (see /v1/trash).',
    'Only the owner (a team note: any member of the team) may delete it.',
  ].join(' '),
  parameters: params,
  responses: {
    204: { description: 'Moved to the trash (restorable for the retention period; see /v1/trash)' },
    ...errors('bad_request', 'forbidden', 'not_found', 'conflict'),
  },
});

const note = pathParams(params.notePath);
const folder = pathParams(params.folderPath);
const teamFolder = pathParams(params.teamFolderPath);
const folderQuery = [
  {
    name: 'folderId',
    in: 'query',
    required: false,
    description: 'Only the notes directly in this folder',
    schema: { type: 'string' },
  },
];
const folderJson = (description: string) => json(ref('ApiFolder'), description);

/** The seven folder operations of a workspace (personal: prefix /v1; team: /v1/teams/{teamPath}). */
function folderRoutes(
  prefix: string,
  params: unknown[],
  itemParams: unknown[],
  team: boolean,
): Record<string, PathItem> {
  const limits = `At most ${MAX_FOLDERS} folders per workspace, nested at most ${MAX_FOLDER_DEPTH} deep.`;
  const where = team ? "the team's workspace (members)" : "the caller's workspace";
  const common = team
    ? (['bad_request', 'forbidden', 'not_found'] as ErrorType[])
    : (['bad_request'] as ErrorType[]);
  return {
    [`${prefix}/folders`]: {
      get: {
        description: `Every folder of ${where} with its parentFolderId, oldest first. ${limits}`,
        parameters: params,
        responses: { 200: json({ type: 'array', items: ref('ApiFolder') }, 'Folders'), ...errors(...common) },
      },
      post: {
        description: `A name, optional description, icon and color, and a parentFolderId (422 if unknown). ${limits}`,
        parameters: params,
        requestBody: {
          required: false,
          content: { 'application/json': { schema: ref('CreateFolderBody') } },
        },
        responses: {
          201: folderJson('The created folder'),
          ...errors(...common, 'validation_failed', 'conflict', 'unsupported_media_type'),
        },
      },
    },
    [`${prefix}/folders/folder-order`]: {
      get: {
        description:
          'The ordering as stored, completed with the folders it does not list (in creation order).',
        parameters: params,
        responses: { 200: json(ref('ApiFolderOrder'), 'The ordering'), ...errors(...common) },
      },
      put: {
        description:
          'Each listed folder must exist and sit under the parent it is listed under (422 otherwise).',
        parameters: params,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('UpdateFolderOrderBody') } },
        },
        responses: {
          204: { description: 'Stored' },
          ...errors(...common, 'validation_failed', 'unsupported_media_type'),
        },
      },
    },
    [`${prefix}/folders/{folderId}`]: {
      get: {
        description: `The folder with its parentFolderId; an unknown folder is 404.`,
        parameters: itemParams,
        responses: { 200: folderJson('The folder'), ...errors(...common, 'not_found') },
      },
      patch: {
        description: `Only the fields sent change. A move that makes a cycle or nests too deep is 422. ${limits}`,
        parameters: itemParams,
        requestBody: { required: true, content: { 'application/json': { schema: ref('UpdateFolderBody') } } },
        responses: {
          202: folderJson('The updated folder'),
          ...errors(...common, 'not_found', 'conflict', 'validation_failed', 'unsupported_media_type'),
        },
      },
      delete: {
        description: 'Move or delete its notes and sub-folders first: a folder that holds any is 409.',
        parameters: itemParams,
        responses: { 204: { description: 'Deleted' }, ...errors(...common, 'not_found', 'conflict') },
      },
    },
  };
}
const teamNote = pathParams(params.teamNotePath);
const teamOnly = pathParams(params.teamPathOnly);

/** OpenAPI 3.1 document of the Notes API. */
export const buildNotesDocument = () =>
  document({
    title: 'Notes API (HackMD API v1 compatible)',
    version: '1.0.0',
    description: [
      'The public API v1 of HackMD, as the Notes interface document defines it. Every operation needs `Authorization: Bearer <token>`.',
      'Timestamps are epoch milliseconds. A note is addressed by its 22-character `id` or its `shortId`.',
      `Folders: at most ${MAX_FOLDERS} per workspace, nested at most ${MAX_FOLDER_DEPTH} deep; a non-empty folder cannot be deleted (409).`,
      `Limits: content ${MAX_CONTENT_BYTES} bytes of UTF-8; images ${MAX_IMAGE_BYTES} bytes (PNG, JPEG, GIF, WebP); history limit 1..${MAX_HISTORY}.`,
      'Errors: {code, message, description, errors?: [{field, message}]}. Decisions: docs/notes.md.',
      'Rate limit per API token (default 100 calls per 300 s): every response to a valid token carries ' +
        'X-RateLimit-UserLimit, X-RateLimit-UserRemaining and X-RateLimit-UserReset (epoch seconds); ' +
        'over the limit, 429 with Retry-After.',
    ].join('\n'),
    security: true,
    tags: TAGS,
    routes: NOTES_ROUTES.rows,
    paths: {
      '/v1/me': {
        get: {
          description: "The token's user: id, name, email, userPath, photo and the teams they belong to.",
          responses: { 200: json(ref('User'), 'The caller'), ...errors() },
        },
      },
      '/v1/teams': {
        get: {
          description:
            'Every team the caller is a member of, with its path, name, logo, description and visibility.',
          responses: { 200: json({ type: 'array', items: ref('Team') }, 'Teams'), ...errors() },
        },
      },
      '/v1/history': {
        get: {
          description:
            'Each note once, as the caller last saw it (a snapshot: later changes by others are not reflected).',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `The maximum count of items: a number 1..${MAX_HISTORY}, rounded down (default ${MAX_HISTORY})`,
              schema: { type: 'number', format: 'double', minimum: 1, maximum: MAX_HISTORY },
            },
          ],
          responses: { 200: noteList('History entries'), ...errors('bad_request') },
        },
      },
      '/v1/notes': {
        get: {
          description:
            'Without content. With folderId, only the notes directly in that folder (404 for an unknown folder).',
          parameters: folderQuery,
          responses: { 200: noteList('Notes'), ...errors('bad_request', 'not_found') },
        },
        post: createNote([]),
      },
      '/v1/notes/{noteId}': {
        get: getNote(note),
        patch: updateNote(note),
        delete: deleteNote(note),
      },
      '/v1/notes/{noteId}/images': {
        post: {
          description:
            `multipart/form-data with exactly one file part named image: PNG, JPEG, GIF or WebP (told from ` +
            `the bytes), at most ${MAX_IMAGE_BYTES} bytes. Answers the public link of the stored image.`,
          parameters: note,
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['image'],
                  additionalProperties: false,
                  properties: { image: { type: 'string', contentMediaType: 'application/octet-stream' } },
                },
              },
            },
          },
          responses: {
            200: json(r.imageUploadResponse, 'The public link of the image'),
            ...errors(
              'bad_request',
              'forbidden',
              'not_found',
              'payload_too_large',
              'unsupported_media_type',
              'validation_failed',
            ),
          },
        },
      },
      '/v1/teams/{teamPath}/notes': {
        get: {
          description:
            'Without content; members only. With folderId, only the notes directly in that team folder.',
          parameters: [...teamOnly, ...folderQuery],
          responses: { 200: noteList('Notes'), ...errors('bad_request', 'forbidden', 'not_found') },
        },
        post: createNote(teamOnly, true),
      },
      '/v1/teams/{teamPath}/notes/{noteId}': {
        get: getNote(teamNote, true),
        patch: updateNote(teamNote, true),
        delete: deleteNote(teamNote),
      },
      ...folderRoutes('/v1', [], folder, false),
      '/v1/trash': {
        get: {
          description:
            'Each with when it was deleted and when it will be purged (after the retention period).',
          responses: {
            200: json({ type: 'array', items: ref('ApiTrashNote') }, 'Trashed notes'),
            ...errors(),
          },
        },
      },
      '/v1/trash/{noteId}/restore': {
        put: {
          description:
            "Its owner may restore it; a team note, the team's admin or the member who deleted it. A permalink taken meanwhile is 409.",
          parameters: note,
          responses: {
            204: { description: 'Restored' },
            ...errors('bad_request', 'forbidden', 'not_found', 'conflict'),
          },
        },
      },
      '/v1/trash/batch-restore': {
        put: {
          description:
            'Each note is restored on its own: 200 when all were, 207 with the outcome of each otherwise.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('BatchRestoreTrashBody') } },
          },
          responses: {
            200: json(ref('TrashBatchOperationResponse'), 'Every note was restored'),
            207: json(
              ref('TrashBatchOperationResponse'),
              'Outcomes differ: each note id with success, or failure and its reason',
            ),
            ...errors('not_found', 'validation_failed', 'unsupported_media_type'),
          },
        },
      },
      '/v1/teams/{teamPath}/trash': {
        get: {
          description:
            'Each with when it was deleted, by whom, and when it will be purged; other members get 403.',
          parameters: teamOnly,
          responses: {
            200: json({ type: 'array', items: ref('ApiTrashNote') }, 'Trashed notes'),
            ...errors('bad_request', 'forbidden', 'not_found'),
          },
        },
      },
      ...folderRoutes('/v1/teams/{teamPath}', teamOnly, teamFolder, true),
      ...pagePaths(),
      ...revisionPaths(errors),
      ...searchPaths(errors),
      ...livePaths(errors, note, teamNote),
      ...webhookRoutes({ ref, errors: errorsOn('/v1/webhooks'), pathParams }, false),
      ...webhookRoutes({ ref, errors: errorsOn('/v1/webhooks'), pathParams }, true),
    },
    webhooks: webhookEvents({ ref }),
    components: {
      schemas: {
        Note: schema(r.note),
        SingleNote: schema(r.singleNote),
        CreateNoteMultiStatus: schema(r.createNoteMultiStatus),
        Team: schema(r.team),
        User: schema(r.user),
        NoteCreation: inputSchema(nr.createNoteBodyDocumented),
        NoteChanges: inputSchema(s.noteChanges),
        Error: {
          ...schema(r.restError),
          properties: { ...(schema(r.restError).properties as object), code: errorCodeSchema },
        },
        ApiFolder: schema(fr.apiFolder),
        ApiTrashNote: schema(tr.apiTrashNote),
        TrashBatchOperationResponse: schema(tr.trashBatchResult),
        BatchRestoreTrashBody: inputSchema(t.batchRestoreBody),
        ApiFolderOrder: schema(fr.apiFolderOrder),
        CreateFolderBody: inputSchema(f.folderCreation),
        UpdateFolderBody: inputSchema(f.folderChanges),
        UpdateFolderOrderBody: inputSchema(f.folderOrderBody),
        ...revisionSchemas(),
        ...searchSchemas(),
        ...liveSchemas(),
        ...webhookSchemas(),
      },
    },
  });
