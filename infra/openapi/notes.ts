// OpenAPI 3.1 document of the Notes API (seed 000), generated from the zod schemas in
// lib/notes/schemas.ts that validate requests and describe responses.
import type * as z from 'zod/mini';
import { ERRORS, type ErrorType } from '../../lib/http/errors.ts';
import { MAX_CONTENT_BYTES, MAX_HISTORY, MAX_IMAGE_BYTES } from '../../lib/notes/model.ts';
import * as s from '../../lib/notes/schemas.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../lib/domain/idempotency.ts';
import { document, inputSchema, json, schema } from './build.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });

const ERROR_DESCRIPTIONS: Partial<Record<ErrorType, string>> = {
  bad_request: 'A path or query parameter is invalid (named in errors[])',
  unauthorized: 'Missing, malformed, unknown or revoked token (WWW-Authenticate: Bearer)',
  forbidden: 'Not a member of the team, or not allowed to change this note or these fields',
  not_found: 'No such note the caller may read, or no such team',
  conflict: 'The permalink is used by another note of the same owner, or the note kept changing concurrently; on a create, the Idempotency-Key was used for another request or its first request is still in flight',
  precondition_failed: 'If-Match does not list the current ETag',
  payload_too_large: `content over ${MAX_CONTENT_BYTES} bytes of UTF-8, or an image over ${MAX_IMAGE_BYTES} bytes (named in errors[])`,
  unsupported_media_type: 'Wrong request content type, or an image that is not PNG, JPEG, GIF or WebP',
  validation_failed: 'Malformed JSON or invalid/unknown body fields (each named in errors[])',
  internal_error: 'Unexpected server failure',
  service_unavailable: 'A dependency did not answer in time or throttled: retry after Retry-After seconds (creates: with the same Idempotency-Key)',
};
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } } };
const errors = (...types: ErrorType[]) =>
  Object.fromEntries([...types, 'unauthorized', 'internal_error', 'service_unavailable'].map((t) => [
    String(ERRORS[t as ErrorType].status),
    t === 'service_unavailable'
      ? { ...errorResponse(ERROR_DESCRIPTIONS[t]!), headers: retryAfter }
      : errorResponse(ERROR_DESCRIPTIONS[t as ErrorType]!),
  ]));

const validatorHeaders = {
  ETag: { description: 'Entity tag of the note version', schema: { type: 'string' } },
  'Last-Modified': { description: 'lastChangedAt as an HTTP date', schema: { type: 'string' } },
};
const singleNoteOk = (description: string) => ({ ...json(ref('SingleNote'), description), headers: validatorHeaders });
const notModified = { description: 'Not modified: If-None-Match lists the ETag, or (without it) If-Modified-Since is not older than the note', headers: validatorHeaders };
const noteList = (description: string) => json({ type: 'array', items: ref('Note') }, description);

const pathParams = (p: z.ZodMiniObject) => Object.entries(inputSchema(p).properties as Record<string, unknown>).map(([name, sch]) => ({ name, in: 'path', required: true, schema: sch }));
const conditionalHeaders = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
];
const ifMatch = { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'Update only if the note still has this ETag (412 otherwise)' };

const createBody = {
  required: false,
  description: 'A JSON string (the content), an object of creation properties, or no body (an empty note). Defaults: readPermission and writePermission owner, commentPermission and suggestEditPermission signed_in_users.',
  content: { 'application/json': { schema: ref('NoteCreation') } },
};
const changesBody = { required: true, content: { 'application/json': { schema: ref('NoteChanges') } } };

const idempotencyKey = {
  name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  description: 'Makes a retry safe (e.g. after a timeout or a 503, whose write may have committed): the first successful response is stored for 24 hours and replayed (Idempotent-Replayed: true) for the same key, path and body; another body, or a request still in flight, is 409. Keys are per caller.',
};
const createNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId, summary, parameters: [...params, idempotencyKey], requestBody: createBody,
  responses: { 200: singleNoteOk('The created note'), ...errors('bad_request', 'forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'validation_failed') },
});
const getNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId, summary, parameters: [...params, ...conditionalHeaders],
  responses: { 200: singleNoteOk('The note (recorded in the caller\'s history)'), 304: notModified, ...errors('bad_request', 'forbidden', 'not_found') },
});
const updateNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId, summary, parameters: [...params, ifMatch], requestBody: changesBody,
  responses: { 200: singleNoteOk('The updated note'), ...errors('bad_request', 'forbidden', 'not_found', 'conflict', 'precondition_failed', 'payload_too_large', 'unsupported_media_type', 'validation_failed') },
});
const deleteNote = (summary: string, operationId: string, params: unknown[]) => ({
  operationId, summary, parameters: params,
  responses: { 204: { description: 'Deleted, with its history entries and images' }, ...errors('bad_request', 'forbidden', 'not_found', 'conflict') },
});

const note = pathParams(s.notePath);
const teamNote = pathParams(s.teamNotePath);
const teamOnly = pathParams(s.teamPathOnly);

/** OpenAPI 3.1 document of the Notes API. */
export const buildNotesDocument = () => document({
  title: 'Notes API (HackMD API v1 compatible)',
  version: '1.0.0',
  description: [
    'Seed 000 (HackMD public API v1). Every operation needs `Authorization: Bearer <token>`.',
    'Timestamps are epoch milliseconds. A note is addressed by its 22-character `id` or its `shortId`.',
    `Limits: content ${MAX_CONTENT_BYTES} bytes of UTF-8; images ${MAX_IMAGE_BYTES} bytes (PNG, JPEG, GIF, WebP); history limit 1..${MAX_HISTORY}.`,
    'Errors: {code, message, description, errors?: [{field, message}]}. Decisions: docs/notes.md.',
  ].join('\n'),
  security: true,
  paths: {
    '/v1/me': { get: { operationId: 'GetCurrentUser', summary: 'The caller, with their teams', responses: { 200: json(ref('User'), 'The caller'), ...errors() } } },
    '/v1/teams': { get: { operationId: 'ListTeams', summary: 'Teams the caller belongs to', responses: { 200: json({ type: 'array', items: ref('Team') }, 'Teams'), ...errors() } } },
    '/v1/history': {
      get: {
        operationId: 'GetHistory', summary: 'Notes the caller read or changed, most recent first, each once (as last seen by the caller)',
        parameters: [{ name: 'limit', in: 'query', required: false, description: `1..${MAX_HISTORY} (default ${MAX_HISTORY})`, schema: { type: 'integer', minimum: 1, maximum: MAX_HISTORY } }],
        responses: { 200: noteList('History entries'), ...errors('bad_request') },
      },
    },
    '/v1/notes': {
      get: { operationId: 'ListNotes', summary: 'The caller\'s own notes, most recently changed first', responses: { 200: noteList('Notes'), ...errors() } },
      post: createNote('Create a personal note', 'CreateNote', []),
    },
    '/v1/notes/{noteId}': {
      get: getNote('A note the caller may read (own, team, or shared with signed-in users)', 'GetNote', note),
      patch: updateNote('Change the fields sent', 'UpdateNote', note),
      delete: deleteNote('Delete a note', 'DeleteNote', note),
    },
    '/v1/notes/{noteId}/images': {
      post: {
        operationId: 'UploadNoteImage', summary: 'Upload an image for a note (needs write access)', parameters: note,
        requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['image'], additionalProperties: false, properties: { image: { type: 'string', contentMediaType: 'application/octet-stream' } } } } } },
        responses: { 200: json(s.imageUploadResponse, 'The public link of the image'), ...errors('bad_request', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'validation_failed') },
      },
    },
    '/v1/teams/{teamPath}/notes': {
      get: { operationId: 'ListTeamNotes', summary: 'The team\'s notes, most recently changed first', parameters: teamOnly, responses: { 200: noteList('Notes'), ...errors('bad_request', 'forbidden', 'not_found') } },
      post: createNote('Create a team note', 'CreateTeamNote', teamOnly),
    },
    '/v1/teams/{teamPath}/notes/{noteId}': {
      get: getNote('A note of the team', 'GetTeamNote', teamNote),
      patch: updateNote('Change the fields sent of a team note', 'UpdateTeamNote', teamNote),
      delete: deleteNote('Delete a team note', 'DeleteTeamNote', teamNote),
    },
  },
  components: {
    schemas: {
      Note: schema(s.note),
      SingleNote: schema(s.singleNote),
      Team: schema(s.team),
      User: schema(s.user),
      NoteCreation: inputSchema(s.createNoteBodyDocumented),
      NoteChanges: inputSchema(s.noteChanges),
      Error: schema(s.restError),
    },
  },
});
