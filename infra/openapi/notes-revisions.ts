// The Versions and Comments operations of the Notes document (HackMD's shapes), and our extension
// that writes comments (marked x-extension: HackMD's API has no such routes). Built from the valibot
// schemas in lib/notes/revisions/schemas.ts (requests) and response-schemas.ts (responses).
import type { ErrorType } from '../../lib/http/errors.ts';
import { MAX_COMMENT_BODY, MAX_REPLIES } from '../../lib/notes/revisions/comments.ts';
import { notePath } from '../../lib/notes/kernel/params.ts';
import * as r from '../../lib/notes/revisions/response-schemas.ts';
import * as s from '../../lib/notes/revisions/schemas.ts';
import { SYSTEM_VERSION_RETENTION_DAYS, VERSION_WINDOW_MS } from '../../lib/notes/revisions/versions.ts';
import { inputSchema, type PathItem, schema } from './build.ts';

type Errors = (...types: ErrorType[]) => Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const params = (p: Parameters<typeof inputSchema>[0], where: 'path' | 'query') => {
  const sch = inputSchema(p) as { properties: Record<string, unknown>; required?: string[] };
  return Object.entries(sch.properties).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || (sch.required ?? []).includes(name),
    schema,
  }));
};
const body = (name: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: ref(name), example } },
});
const answer = (description: string, name: string, example: unknown) => ({
  description,
  content: { 'application/json': { schema: ref(name), example } },
});
const revisionError = (description: string, example: unknown) =>
  answer(description, 'RevisionError', example);

const ada = { user_id: '0f0c5a0e-5b1e-4a57-9d0e-3c1f7a2d9b11', display_name: 'Ada', photo: '' };
const systemVersion = {
  id: '01938a6e-7a10-7c3e-9f5b-2a1d4c6e8f00',
  name: 'Auto-saved 2026-11-24T10:00:00.000Z',
  name_source: 'system',
  description: null,
  created_at: '2026-11-24T10:00:00.000Z',
  created_by: null,
  authorship: [ada],
  content_available: true,
};
const namedVersion = {
  ...systemVersion,
  name: 'Before the review',
  name_source: 'user',
  description: 'What the reviewers read',
  created_by: ada,
};
const actor = { kind: 'user', userId: ada.user_id, displayName: 'Ada' };
const openState = { status: 'open', reason: null, actedBy: null, actedAt: null };
const head = {
  id: '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22',
  threadId: '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22',
  actor,
  body: 'Is this figure still right?',
  contentType: 'plain_text',
  commentState: openState,
  isPinned: false,
  anchor: { offset: 12, length: 9 },
  currentAnchor: { offset: 40, length: 9 },
  excerpt: '42 widgets',
  reactions: [],
  createdAt: 1795860000000,
  updatedAt: 1795860000000,
  isThreadHead: true,
  replyCount: 1,
  threadState: { ...openState, sourceCommentId: '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22' },
};
const resolvedState = { status: 'hidden', reason: 'resolved', actedBy: actor, actedAt: 1795860300000 };
const extension =
  'Extension of this API: HackMD has no call that writes comments (its editor does), so without it the comment operations would only ever see none.';

export function revisionPaths(errors: Errors): Record<string, PathItem> {
  const note = params(notePath, 'path');
  const version = params(s.versionPath, 'path');
  const comment = params(s.commentPath, 'path');
  const readOnly = errors('bad_request', 'forbidden', 'not_found');
  return {
    '/v1/notes/{noteId}/versions': {
      get: {
        description:
          `The note's saved versions, newest first (read access). System versions are kept automatically as ` +
          `the content changes: at most one per ${VERSION_WINDOW_MS / 60000} minutes (later changes in the ` +
          `window update it), each kept ${SYSTEM_VERSION_RETENTION_DAYS} days; named versions are kept until ` +
          `the note is purged. Filters: named_only, q (in name or description), created_by (a user id), ` +
          `created_after/created_before (ISO-8601); page (from 1), limit (1..100, default 50).`,
        parameters: [...note, ...params(s.versionsQuery, 'query')],
        responses: {
          200: answer('One page of versions', 'GetNoteVersions', {
            data: [namedVersion, systemVersion],
            meta: { total_pages: 1, total: 2, limit: 50, page: 1 },
          }),
          ...readOnly,
        },
      },
      post: {
        description:
          'Names the live content (base note_content, the default) or a system version (base version:{id}); ' +
          'needs write access. When the newest version holds the live content and is a system version, that ' +
          'version is named in place (201); when it is already named, 409 no_content_change. Naming an already ' +
          'named version: 409 version_already_named. A note keeps at most 50 named versions: naming one more is ' +
          '409 version_limit_reached (with max_named_versions).',
        parameters: note,
        requestBody: body('CreateNoteVersionBody', {
          name: 'Before the review',
          description: 'What the reviewers read',
        }),
        responses: {
          201: answer('The named version', 'NoteVersionMetadata', namedVersion),
          409: revisionError(
            'No content change, the version is already named, or the note has its most named versions',
            {
              code: 40900,
              message: 'Conflict',
              description: 'The content has not changed since the latest named version',
              error_code: 'no_content_change',
              latest_version_id: namedVersion.id,
              latest_name_source: 'user',
            },
          ),
          ...errors('bad_request', 'forbidden', 'not_found', 'validation_failed', 'unsupported_media_type'),
        },
      },
      patch: {
        description:
          'Renames a named version given as base version:{id} (name and/or description); needs write access. A system version: 422 version_not_named.',
        parameters: note,
        requestBody: body('UpdateNoteVersionBody', { base: `version:${namedVersion.id}`, name: 'Reviewed' }),
        responses: {
          200: answer('The renamed version', 'NoteVersionMetadata', { ...namedVersion, name: 'Reviewed' }),
          422: revisionError('Invalid body, or the version is a system version (version_not_named)', {
            code: 42200,
            message: 'Validation Failed',
            description: 'The version is a system version: name it with POST first',
            details: { body: { message: 'The version is a system version: name it with POST first' } },
            error_code: 'version_not_named',
            version_id: systemVersion.id,
          }),
          ...errors('bad_request', 'forbidden', 'not_found', 'unsupported_media_type'),
        },
      },
    },
    '/v1/notes/{noteId}/versions/compare': {
      get: {
        description:
          'A unified diff from base to target, each note_content (the live content) or version:{id}; patch applies it ' +
          'to base and gives target. Read access. Bounded: two contents that differ by more than max_edit_lines ' +
          'lines, or take longer than timeout_ms to diff, are 422 diff_too_large.',
        parameters: [...note, ...params(s.compareQuery, 'query')],
        responses: {
          200: answer('The diff', 'CompareNoteVersions', {
            unified_diff:
              '===================================================================\n--- note_content\n+++ ' +
              'version:01938a6e-7a10-7c3e-9f5b-2a1d4c6e8f00\n@@ -1,1 +1,1 @@\n-# Plan\n+# Plan B\n',
          }),
          422: revisionError(
            'The version content is no longer available, or the contents differ too much to diff in time',
            {
              code: 42200,
              message: 'Validation Failed',
              description: 'The version has no content available',
              details: { body: { message: 'The version has no content available' } },
              error_code: 'version_content_unavailable',
              unavailable_ref: `version:${systemVersion.id}`,
            },
          ),
          ...readOnly,
        },
      },
    },
    '/v1/notes/{noteId}/versions/{versionId}': {
      get: {
        description: 'One version with its content (read access).',
        parameters: version,
        responses: {
          200: answer('The version', 'NoteVersion', { ...namedVersion, content: '# Plan\n' }),
          ...readOnly,
        },
      },
    },
    '/v1/notes/{noteId}/comments': {
      get: {
        description:
          'Comments and replies of a note (read access; 403 when the note has comments disabled), oldest first ' +
          '(sort=desc: newest first). Filters: threadId, commentStatus, threadStatus, isThreadHead=true; page ' +
          '(from 1), limit 1..100 (default 50). currentAnchor is where the anchored text is in the live ' +
          'content (null once it is gone).',
        parameters: [...note, ...params(s.commentsQuery, 'query')],
        responses: {
          200: answer('One page of comments', 'GetNoteComments', {
            comments: [head],
            pagination: { page: 1, limit: 50, hasNext: false },
          }),
          ...readOnly,
        },
      },
      post: {
        'x-extension': true,
        description:
          `${extension} A thread head (optionally anchored to {offset, length} of the live content, in UTF-16 ` +
          `code units) or, with threadId, a reply (at most ${MAX_REPLIES} per thread; no anchor). Body: plain ` +
          `text, 1..${MAX_COMMENT_BODY} characters, not blank. Who may: the note's commentPermission — ` +
          `disabled and forbidden nobody; owners the note's owner (a team note: its members); signed_in_users ` +
          `and everyone anyone who may read the note.`,
        parameters: note,
        requestBody: body('CreateNoteCommentBody', {
          body: 'Is this figure still right?',
          anchor: { offset: 12, length: 9 },
        }),
        responses: {
          201: answer('The comment', 'ApiCommentDetail', {
            ...head,
            replyCount: 0,
            currentAnchor: head.anchor,
          }),
          ...errors('bad_request', 'forbidden', 'not_found', 'validation_failed', 'unsupported_media_type'),
        },
      },
    },
    '/v1/notes/{noteId}/comments/{commentId}': {
      get: {
        description:
          "One comment or reply with its thread's state (read access; 403 when comments are disabled).",
        parameters: comment,
        responses: { 200: answer('The comment', 'ApiCommentDetail', head), ...readOnly },
      },
      patch: {
        'x-extension': true,
        description:
          `${extension} Replaces the body of the caller's own comment (others' comments: 403; the note's ` +
          `commentPermission must still let the caller comment).`,
        parameters: comment,
        requestBody: body('UpdateNoteCommentBody', { body: 'Is this figure still right? (checked)' }),
        responses: {
          200: answer('The comment', 'ApiCommentDetail', {
            ...head,
            body: 'Is this figure still right? (checked)',
          }),
          ...errors(
            'bad_request',
            'forbidden',
            'not_found',
            'conflict',
            'validation_failed',
            'unsupported_media_type',
          ),
        },
      },
      delete: {
        'x-extension': true,
        description: `${extension} Deletes the caller's own comment; a thread head goes with its replies.`,
        parameters: comment,
        responses: {
          204: { description: 'Deleted' },
          ...errors('bad_request', 'forbidden', 'not_found', 'conflict'),
        },
      },
    },
    '/v1/notes/{noteId}/comments/{commentId}/resolution': {
      put: {
        description:
          "Resolves the comment's thread (cascade names it). Who: anyone the note's commentPermission lets " +
          "comment, and the note's owner (team: members) also when comments are forbidden. 409 when the thread " +
          'is already resolved.',
        parameters: comment,
        responses: {
          200: answer('The comment and the thread it resolved', 'ApiCommentResolutionResponse', {
            comment: {
              ...head,
              commentState: resolvedState,
              threadState: { ...resolvedState, sourceCommentId: head.id },
            },
            cascade: { threadId: head.threadId },
          }),
          409: revisionError('The thread is already resolved', {
            code: 40900,
            message: 'Conflict',
            description: 'The thread is already resolved',
            errorCode: 'comment_already_resolved',
            commentState: resolvedState,
          }),
          ...readOnly,
        },
      },
      delete: {
        description: "Reopens the comment's thread (same rights as resolving). 409 when the thread is open.",
        parameters: comment,
        responses: {
          200: answer('The comment and the thread it reopened', 'ApiCommentResolutionResponse', {
            comment: head,
            cascade: { threadId: head.threadId },
          }),
          409: revisionError('The thread is open', {
            code: 40900,
            message: 'Conflict',
            description: 'The thread is already open',
            errorCode: 'comment_not_resolved',
            commentState: openState,
          }),
          ...readOnly,
        },
      },
    },
  };
}

export const revisionSchemas = () => ({
  NoteVersionMetadata: schema(r.noteVersionMetadata),
  NoteVersion: schema(r.noteVersion),
  GetNoteVersions: schema(r.getNoteVersions),
  CompareNoteVersions: schema(r.compareNoteVersions),
  // ApiCommentHead and ApiCommentListReply are inlined in GetNoteComments and ApiCommentDetail.
  ApiCommentDetail: schema(r.apiCommentDetail),
  GetNoteComments: schema(r.getNoteComments),
  ApiCommentResolutionResponse: schema(r.apiCommentResolutionResponse),
  RevisionError: schema(r.revisionError),
  CreateNoteVersionBody: inputSchema(s.createVersionBody),
  UpdateNoteVersionBody: inputSchema(s.updateVersionBody),
  CreateNoteCommentBody: inputSchema(s.createCommentBody),
  UpdateNoteCommentBody: inputSchema(s.updateCommentBody),
});
