// zod schemas that describe the versions and comments responses (HackMD's NoteVersionMetadata,
// NoteVersion, GetNoteVersions, CompareNoteVersions, ApiCommentHead, ApiCommentListReply,
// ApiCommentDetail, GetNoteComments, ApiCommentResolutionResponse). Only infra/openapi bundles them.
import * as z from 'zod/mini';

const versionUser = z.strictObject({
  user_id: z.string(),
  display_name: z.string(),
  photo: z.optional(z.string()),
});
const versionFields = {
  id: z.string().check(z.describe('UUIDv7: versions sort by creation time')),
  name: z.string().check(z.describe('a system version is named "Auto-saved <created_at>"')),
  name_source: z.enum(['user', 'system']),
  description: z.nullable(z.string()),
  created_at: z.string().check(z.describe('ISO-8601')),
  created_by: z.nullable(versionUser).check(z.describe('who named it; null for a system version')),
  authorship: z.array(versionUser).check(z.describe('who changed the content since the previous version')),
  content_available: z.boolean(),
};
export const noteVersionMetadata = z.strictObject(versionFields);
export const noteVersion = z.strictObject({ ...versionFields, content: z.optional(z.string()) });
export const getNoteVersions = z.strictObject({
  data: z.array(noteVersionMetadata),
  meta: z.strictObject({ total_pages: z.number(), total: z.number(), limit: z.number(), page: z.number() }),
});
export const compareNoteVersions = z.strictObject({
  unified_diff: z
    .string()
    .check(z.describe('a unified diff (headers base and target) that patch applies to base')),
});

const stateActor = z.strictObject({ kind: z.literal('user'), userId: z.string(), displayName: z.string() });
const stateFields = {
  status: z.enum(['open', 'hidden']),
  reason: z.nullable(z.enum(['resolved'])),
  actedBy: z.nullable(stateActor),
  actedAt: z.nullable(z.number().check(z.describe('epoch milliseconds'))),
};
export const commentState = z.strictObject(stateFields);
const threadState = z.strictObject({ ...stateFields, sourceCommentId: z.string() });
const anchor = z.strictObject({ offset: z.int().check(z.gte(0)), length: z.int().check(z.gte(0)) });
const commentFields = {
  id: z.string(),
  threadId: z.string(),
  actor: stateActor,
  body: z.string(),
  contentType: z.literal('plain_text'),
  commentState,
  isPinned: z.boolean(),
  anchor: z
    .nullable(anchor)
    .check(z.describe('where the comment was anchored when written (UTF-16 code units)')),
  currentAnchor: z
    .nullable(anchor)
    .check(z.describe('where the anchored text is in the live content; null once it is gone')),
  excerpt: z.nullable(z.string()).check(z.describe('the anchored text when the comment was written')),
  reactions: z.array(z.strictObject({ shortcode: z.string(), count: z.int().check(z.gte(1)) })),
  createdAt: z.number().check(z.describe('epoch milliseconds')),
  updatedAt: z.number().check(z.describe('epoch milliseconds')),
};
export const apiCommentHead = z.strictObject({
  ...commentFields,
  isThreadHead: z.literal(true),
  replyCount: z.int().check(z.gte(0)),
  threadState,
});
export const apiCommentListReply = z.strictObject({ ...commentFields, isThreadHead: z.literal(false) });
export const apiCommentDetailReply = z.strictObject({
  ...commentFields,
  isThreadHead: z.literal(false),
  threadState,
});
export const apiCommentDetail = z.union([apiCommentHead, apiCommentDetailReply]);
export const getNoteComments = z.strictObject({
  comments: z.array(z.union([apiCommentHead, apiCommentListReply])),
  pagination: z.strictObject({ page: z.int(), limit: z.int(), hasNext: z.boolean() }),
});
export const apiCommentResolutionResponse = z.strictObject({
  comment: apiCommentDetail,
  cascade: z.nullable(z.strictObject({ threadId: z.string() })),
});

/** The REST error body with HackMD's machine-readable facts of these routes' errors. */
export const revisionError = z.strictObject({
  code: z.int(),
  message: z.string(),
  description: z.string(),
  errors: z.optional(z.array(z.strictObject({ field: z.string(), message: z.string() }))),
  error_code: z.optional(
    z.enum([
      'no_content_change',
      'version_already_named',
      'version_not_named',
      'version_content_unavailable',
    ]),
  ),
  latest_version_id: z.optional(z.string()),
  latest_name_source: z.optional(z.enum(['system', 'user'])),
  version_id: z.optional(z.string()),
  name: z.optional(z.string()),
  unavailable_ref: z.optional(z.string()),
  errorCode: z.optional(z.enum(['comment_already_resolved', 'comment_not_resolved'])),
  commentState: z.optional(commentState),
});
