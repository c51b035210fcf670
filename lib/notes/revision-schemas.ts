// zod schemas of the versions and comments routes' requests (paths, queries, bodies); responses are
// in response-schemas.ts. Query failures are 400, body failures 422 (lib/http/validation.ts).
import * as z from 'zod/mini';
import { MAX_COMMENT_BODY, MAX_COMMENT_LIMIT } from './comments.ts';
import { notePath } from './params.ts';
import { MAX_VERSION_DESCRIPTION, MAX_VERSION_LIMIT, MAX_VERSION_NAME } from './versions.ts';

const uuid = (what: string) =>
  z
    .string()
    .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `must be a ${what} id`));
const ref = z
  .string()
  .check(z.regex(/^(note_content|version:[0-9a-f-]{36})$/, 'must be note_content or version:{id}'));
const flag = z.pipe(
  z.enum(['true', 'false']),
  z.transform((v) => v === 'true'),
);
const positive = (max?: number) => z.coerce.number().check(z.int(), z.gte(1), ...(max ? [z.lte(max)] : []));
const isoDate = z.string().check(
  z.regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'must be an ISO-8601 date-time',
  ),
  z.refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO-8601 date-time'),
);

export const versionPath = z.extend(notePath, { versionId: uuid('version') });
export const commentPath = z.extend(notePath, { commentId: uuid('comment') });

export const versionsQuery = z.object({
  named_only: z.optional(flag),
  q: z.optional(z.string().check(z.maxLength(200))),
  created_by: z.optional(z.string().check(z.maxLength(64))),
  created_after: z.optional(isoDate),
  created_before: z.optional(isoDate),
  page: z.optional(positive()),
  limit: z.optional(positive(MAX_VERSION_LIMIT)),
});
export const compareQuery = z.object({ base: ref, target: ref });

const versionName = z
  .string()
  .check(z.minLength(1), z.maxLength(MAX_VERSION_NAME), z.regex(/\S/, 'must not be blank'));
const versionDescription = z.string().check(z.maxLength(MAX_VERSION_DESCRIPTION));
export const createVersionBody = z.strictObject({
  name: versionName,
  description: z.optional(versionDescription),
  base: z.optional(ref),
});
export const updateVersionBody = z
  .strictObject({
    base: z.string().check(z.regex(/^version:[0-9a-f-]{36}$/, 'must be version:{id}')),
    name: z.optional(versionName),
    description: z.optional(versionDescription),
  })
  .check(
    z.refine((b) => b.name !== undefined || b.description !== undefined, {
      message: 'send name, description or both',
      path: ['name'],
    }),
  );

const status = z.enum(['open', 'hidden']);
export const commentsQuery = z.object({
  page: z.optional(positive()),
  limit: z.optional(positive(MAX_COMMENT_LIMIT)),
  sort: z.optional(z.enum(['asc', 'desc'])),
  threadId: z.optional(uuid('thread')),
  commentStatus: z.optional(status),
  threadStatus: z.optional(status),
  isThreadHead: z.optional(
    z.pipe(
      z.enum(['true']),
      z.transform(() => true),
    ),
  ),
});

const commentBody = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(MAX_COMMENT_BODY),
    z.describe(`plain text, 1..${MAX_COMMENT_BODY} characters, not blank`),
  );
export const createCommentBody = z.strictObject({
  body: commentBody,
  anchor: z.optional(
    z.strictObject({
      offset: z.int().check(z.gte(0)),
      length: z.int().check(z.gte(1)),
    }),
  ),
  threadId: z.optional(uuid('thread')),
});
export const updateCommentBody = z.strictObject({ body: commentBody });
