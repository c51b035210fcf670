// OpenAPI 3.1 document of the Notes API (seed 000), generated from the zod schemas that validate
// requests (lib/notes/params.ts, lib/notes/*schemas.ts) and those that describe responses (lib/notes/response-schemas.ts).
import type * as z from 'zod/mini';
import { ERRORS, type ErrorType } from '../../lib/http/errors.ts';
import { MAX_CONTENT_BYTES, MAX_HISTORY, MAX_IMAGE_BYTES } from '../../lib/notes/model.ts';
import * as f from '../../lib/notes/folder-schemas.ts';
import { MAX_FOLDER_DEPTH, MAX_FOLDERS } from '../../lib/notes/folders.ts';
import * as params from '../../lib/notes/params.ts';
import * as r from '../../lib/notes/response-schemas.ts';
import * as s from '../../lib/notes/schemas.ts';
import * as t from '../../lib/notes/trash-schemas.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../lib/domain/idempotency.ts';
import { document, inputSchema, json, schema } from './build.ts';
import { webhookRoutes, webhookSchemas } from './notes-webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

const ERROR_DESCRIPTIONS: Partial<Record<ErrorType, string>> = {
  bad_request: 'A path or query parameter is invalid (named in errors[])',
  unauthorized: 'Missing, malformed, unknown or revoked token (WWW-Authenticate: Bearer)',
  forbidden: 'Not a member of the team, or not allowed to change this note or these fields',
  not_found: 'No such note (or folder) the caller may read, or no such team',
  conflict:
    'The permalink is used by another note of the same owner, a folder still holds folders or notes, or the resource kept changing concurrently; on a create, the Idempotency-Key was used for another request or its first request is still in flight',
  precondition_failed: 'If-Match does not list the current ETag',
  payload_too_large: `content over ${MAX_CONTENT_BYTES} bytes of UTF-8, or an image over ${MAX_IMAGE_BYTES} bytes (named in errors[])`,
  unsupported_media_type: 'Wrong request content type, or an image that is not PNG, JPEG, GIF or WebP',
  validation_failed:
    'Malformed JSON or invalid/unknown body fields (each named in errors[]); an unknown parentFolderId; a folder move making a cycle or nesting too deep',
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
const tooManyRequests = {
  ...errorResponse("Over the token's rate limit for the current window"),
  headers: {
    'Retry-After': { description: 'Seconds until the window starts over', schema: { type: 'integer' } },
    ...rateHeaders,
  },
};
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } },
};
/** Every operation can answer 401, 429 (the token's rate limit), 500 and 503 besides its own errors. */
const errors = (...types: ErrorType[]) => ({
  ...Object.fromEntries(
    [...types, 'unauthorized', 'internal_error', 'service_unavailable'].map((t) => [
      String(ERRORS[t as ErrorType].status),
      t === 'service_unavailable'
        ? { ...errorResponse(ERROR_DESCRIPTIONS[t]!), headers: retryAfter }
        : errorResponse(ERROR_DESCRIPTIONS[t as ErrorType]!),
    ]),
  ),
  429: tooManyRequests,
});

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

const pathParams = (p: z.ZodMiniObject) =>
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
    'A JSON string (the content), an object of creation properties, or no body (an empty note). Defaults: readPermission and writePermission owner, commentPermission and suggestEditPermission signed_in_users.',
  content: { 'application/json': { schema: ref('NoteCreation') } },
};
const changesBody = { required: true, content: { 'application/json': { schema: ref('NoteChanges') } } };

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  description:
    'Makes a retry safe (e.g. after a timeout or a 503, whose write may have committed): the first successful response is stored for 24 hours and replayed (Idempotent-Replayed: true) for the same key, path and body; another body, or a request still in flight, is 409. Keys are per caller.',
};
const createNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId,
  summary,
  parameters: [...params, idempotencyKey],
  requestBody: createBody,
  responses: {
    200: singleNoteOk('The created note'),
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
const getNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId,
  summary,
  parameters: [...params, ...conditionalHeaders],
  responses: {
    200: singleNoteOk("The note (recorded in the caller's history)"),
    304: notModified,
    ...errors('bad_request', 'forbidden', 'not_found'),
  },
});
const updateNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId,
  summary,
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
const deleteNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId,
  summary,
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
function folderRoutes(prefix: string, params: unknown[], itemParams: unknown[], team: boolean) {
  const op = (name: string) => (team ? name.replace('Folder', 'TeamFolder') : name);
  const where = team ? "the team's workspace (members)" : "the caller's workspace";
  const common = team
    ? (['bad_request', 'forbidden', 'not_found'] as ErrorType[])
    : (['bad_request'] as ErrorType[]);
  return {
    [`${prefix}/folders`]: {
      get: {
        operationId: op('ListFolders'),
        summary: `Every folder of ${where}, oldest first`,
        parameters: params,
        responses: { 200: json({ type: 'array', items: ref('ApiFolder') }, 'Folders'), ...errors(...common) },
      },
      post: {
        operationId: op('CreateFolder'),
        summary: `Create a folder in ${where}`,
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
        operationId: op('GetFolderOrder'),
        summary: "The caller's ordering of the folders: every folder once, under its parent (or root)",
        parameters: params,
        responses: { 200: json(ref('ApiFolderOrder'), 'The ordering'), ...errors(...common) },
      },
      put: {
        operationId: op('UpdateFolderOrder'),
        summary: "Replace the caller's ordering (folders left out keep creation order after the listed ones)",
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
        operationId: op('GetFolder'),
        summary: `One folder of ${where}`,
        parameters: itemParams,
        responses: { 200: folderJson('The folder'), ...errors(...common, 'not_found') },
      },
      patch: {
        operationId: op('UpdateFolder'),
        summary: 'Rename, restyle or move a folder (its notes are not rewritten)',
        parameters: itemParams,
        requestBody: { required: true, content: { 'application/json': { schema: ref('UpdateFolderBody') } } },
        responses: {
          202: folderJson('The updated folder'),
          ...errors(...common, 'not_found', 'conflict', 'validation_failed', 'unsupported_media_type'),
        },
      },
      delete: {
        operationId: op('DeleteFolder'),
        summary: 'Delete an empty folder (409 while it holds sub-folders or notes)',
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
      'Seed 000 (HackMD public API v1). Every operation needs `Authorization: Bearer <token>`.',
      'Timestamps are epoch milliseconds. A note is addressed by its 22-character `id` or its `shortId`.',
      `Folders: at most ${MAX_FOLDERS} per workspace, nested at most ${MAX_FOLDER_DEPTH} deep; a non-empty folder cannot be deleted (409).`,
      `Limits: content ${MAX_CONTENT_BYTES} bytes of UTF-8; images ${MAX_IMAGE_BYTES} bytes (PNG, JPEG, GIF, WebP); history limit 1..${MAX_HISTORY}.`,
      'Errors: {code, message, description, errors?: [{field, message}]}. Decisions: docs/notes.md.',
      'Rate limit per API token (default 100 calls per 300 s): every response to a valid token carries X-RateLimit-UserLimit, X-RateLimit-UserRemaining and X-RateLimit-UserReset (epoch seconds); over the limit, 429 with Retry-After.',
    ].join('\n'),
    security: true,
    paths: {
      '/v1/me': {
        get: {
          operationId: 'GetCurrentUser',
          summary: 'The caller, with their teams',
          responses: { 200: json(ref('User'), 'The caller'), ...errors() },
        },
      },
      '/v1/teams': {
        get: {
          operationId: 'ListTeams',
          summary: 'Teams the caller belongs to',
          responses: { 200: json({ type: 'array', items: ref('Team') }, 'Teams'), ...errors() },
        },
      },
      '/v1/history': {
        get: {
          operationId: 'GetHistory',
          summary:
            'Notes the caller read or changed, most recent first, each once (as last seen by the caller)',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `1..${MAX_HISTORY} (default ${MAX_HISTORY})`,
              schema: { type: 'integer', minimum: 1, maximum: MAX_HISTORY },
            },
          ],
          responses: { 200: noteList('History entries'), ...errors('bad_request') },
        },
      },
      '/v1/notes': {
        get: {
          operationId: 'ListNotes',
          summary: "The caller's own notes, most recently changed first",
          parameters: folderQuery,
          responses: { 200: noteList('Notes'), ...errors('bad_request', 'not_found') },
        },
        post: createNote('Create a personal note', 'CreateNote', []),
      },
      '/v1/notes/{noteId}': {
        get: getNote(
          'A note the caller may read (own, team, or shared with signed-in users)',
          'GetNote',
          note,
        ),
        patch: updateNote('Change the fields sent', 'UpdateNote', note),
        delete: deleteNote('Delete a note', 'DeleteNote', note),
      },
      '/v1/notes/{noteId}/images': {
        post: {
          operationId: 'UploadNoteImage',
          summary: 'Upload an image for a note (needs write access)',
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
          operationId: 'ListTeamNotes',
          summary: "The team's notes, most recently changed first",
          parameters: [...teamOnly, ...folderQuery],
          responses: { 200: noteList('Notes'), ...errors('bad_request', 'forbidden', 'not_found') },
        },
        post: createNote('Create a team note', 'CreateTeamNote', teamOnly),
      },
      '/v1/teams/{teamPath}/notes/{noteId}': {
        get: getNote('A note of the team', 'GetTeamNote', teamNote),
        patch: updateNote('Change the fields sent of a team note', 'UpdateTeamNote', teamNote),
        delete: deleteNote('Delete a team note', 'DeleteTeamNote', teamNote),
      },
      ...folderRoutes('/v1', [], folder, false),
      '/v1/trash': {
        get: {
          operationId: 'ListPersonalTrash',
          summary: "The caller's trashed personal notes, most recently deleted first",
          responses: {
            200: json({ type: 'array', items: ref('ApiTrashNote') }, 'Trashed notes'),
            ...errors(),
          },
        },
      },
      '/v1/trash/{noteId}/restore': {
        put: {
          operationId: 'RestoreNote',
          summary:
            "Restore a trashed note with its content, images, history and folder (its owner; for a team note the team's admin or the member who deleted it)",
          parameters: note,
          responses: {
            204: { description: 'Restored' },
            ...errors('bad_request', 'forbidden', 'not_found', 'conflict'),
          },
        },
      },
      '/v1/trash/batch-restore': {
        put: {
          operationId: 'BatchRestore',
          summary: 'Restore several trashed notes',
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
          operationId: 'ListTeamTrash',
          summary: "The team's trashed notes (the team's admin only)",
          parameters: teamOnly,
          responses: {
            200: json({ type: 'array', items: ref('ApiTrashNote') }, 'Trashed notes'),
            ...errors('bad_request', 'forbidden', 'not_found'),
          },
        },
      },
      ...folderRoutes('/v1/teams/{teamPath}', teamOnly, teamFolder, true),
      ...webhookRoutes({ ref, errors, pathParams }, false),
      ...webhookRoutes({ ref, errors, pathParams }, true),
    },
    components: {
      schemas: {
        Note: schema(r.note),
        SingleNote: schema(r.singleNote),
        Team: schema(r.team),
        User: schema(r.user),
        NoteCreation: inputSchema(r.createNoteBodyDocumented),
        NoteChanges: inputSchema(s.noteChanges),
        Error: schema(r.restError),
        ApiFolder: schema(r.apiFolder),
        ApiTrashNote: schema(r.apiTrashNote),
        TrashBatchOperationResponse: schema(r.trashBatchResult),
        BatchRestoreTrashBody: inputSchema(t.batchRestoreBody),
        ApiFolderOrder: schema(r.apiFolderOrder),
        CreateFolderBody: inputSchema(f.folderCreation),
        UpdateFolderBody: inputSchema(f.folderChanges),
        UpdateFolderOrderBody: inputSchema(f.folderOrderBody),
        ...webhookSchemas(),
      },
    },
  });
