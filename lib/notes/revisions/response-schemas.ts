// valibot schemas that describe the versions and comments responses (HackMD's NoteVersionMetadata,
// NoteVersion, GetNoteVersions, CompareNoteVersions, ApiCommentHead, ApiCommentListReply,
// ApiCommentDetail, GetNoteComments, ApiCommentResolutionResponse). Only infra/openapi bundles them.
import * as v from 'valibot';
import { hackmdErrorEntries } from '../kernel/response-schemas.ts';

const described = <S extends v.GenericSchema>(s: S, description: string) =>
  v.pipe(s, v.description(description));
const int = () => v.pipe(v.number(), v.integer());

const versionUser = v.strictObject({
  user_id: v.string(),
  display_name: v.string(),
  photo: v.optional(v.string()),
});
const versionFields = {
  id: described(v.string(), 'UUIDv7: versions sort by creation time'),
  name: described(v.string(), 'a system version is named "Auto-saved <created_at>"'),
  name_source: v.picklist(['user', 'system']),
  description: v.nullable(v.string()),
  created_at: described(v.string(), 'ISO-8601'),
  created_by: described(v.nullable(versionUser), 'who named it; null for a system version'),
  authorship: described(v.array(versionUser), 'who changed the content since the previous version'),
  content_available: v.boolean(),
};
export const noteVersionMetadata = v.strictObject(versionFields);
export const noteVersion = v.strictObject({ ...versionFields, content: v.optional(v.string()) });
export const getNoteVersions = v.strictObject({
  data: v.array(noteVersionMetadata),
  meta: v.strictObject({ total_pages: v.number(), total: v.number(), limit: v.number(), page: v.number() }),
});
export const compareNoteVersions = v.strictObject({
  unified_diff: described(v.string(), 'a unified diff (headers base and target) that patch applies to base'),
});

const stateActor = v.strictObject({ kind: v.literal('user'), userId: v.string(), displayName: v.string() });
const stateFields = {
  status: v.picklist(['open', 'hidden']),
  reason: v.nullable(v.picklist(['resolved'])),
  actedBy: v.nullable(stateActor),
  actedAt: v.nullable(described(v.number(), 'epoch milliseconds')),
};
export const commentState = v.strictObject(stateFields);
const threadState = v.strictObject({ ...stateFields, sourceCommentId: v.string() });
const anchor = v.strictObject({ offset: v.pipe(int(), v.minValue(0)), length: v.pipe(int(), v.minValue(0)) });
const commentFields = {
  id: v.string(),
  threadId: v.string(),
  actor: stateActor,
  body: v.string(),
  contentType: v.literal('plain_text'),
  commentState,
  isPinned: v.boolean(),
  anchor: described(v.nullable(anchor), 'where the comment was anchored when written (UTF-16 code units)'),
  currentAnchor: described(
    v.nullable(anchor),
    'where the anchored text is in the live content; null once it is gone',
  ),
  excerpt: described(
    v.nullable(v.string()),
    'the anchored text when the comment was written, at most 1000 characters (code points): when it was longer, its first 999 and `…`',
  ),
  reactions: v.array(v.strictObject({ shortcode: v.string(), count: v.pipe(int(), v.minValue(1)) })),
  createdAt: described(v.number(), 'epoch milliseconds'),
  updatedAt: described(v.number(), 'epoch milliseconds'),
};
export const apiCommentHead = v.strictObject({
  ...commentFields,
  isThreadHead: v.literal(true),
  replyCount: v.pipe(int(), v.minValue(0)),
  threadState,
});
export const apiCommentListReply = v.strictObject({ ...commentFields, isThreadHead: v.literal(false) });
export const apiCommentDetailReply = v.strictObject({
  ...commentFields,
  isThreadHead: v.literal(false),
  threadState,
});
export const apiCommentDetail = v.union([apiCommentHead, apiCommentDetailReply]);
export const getNoteComments = v.strictObject({
  comments: v.array(v.union([apiCommentHead, apiCommentListReply])),
  pagination: v.strictObject({ page: int(), limit: int(), hasNext: v.boolean() }),
});
export const apiCommentResolutionResponse = v.strictObject({
  comment: apiCommentDetail,
  cascade: v.nullable(v.strictObject({ threadId: v.string() })),
});

/** The REST error body with HackMD's machine-readable facts of these routes' errors. */
export const revisionError = v.strictObject({
  code: int(),
  message: v.string(),
  description: v.string(),
  errors: v.optional(v.array(v.strictObject({ field: v.string(), message: v.string() }))),
  ...hackmdErrorEntries,
  error_code: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Versions routes: no_content_change, version_already_named, version_not_named, ' +
          "version_content_unavailable, diff_too_large, version_limit_reached, else the error's type",
      ),
    ),
  ),
  latest_version_id: v.optional(v.string()),
  latest_name_source: v.optional(v.picklist(['system', 'user'])),
  version_id: v.optional(v.string()),
  name: v.optional(v.string()),
  unavailable_ref: v.optional(v.string()),
  max_edit_lines: v.optional(int()),
  timeout_ms: v.optional(int()),
  max_named_versions: v.optional(int()),
  errorCode: v.optional(
    v.pipe(
      v.string(),
      v.description("Comments routes: comment_already_resolved, comment_not_resolved, else the error's type"),
    ),
  ),
  commentState: v.optional(commentState),
});
