// valibot schemas of the versions and comments routes' requests (paths, queries, bodies); responses
// are in response-schemas.ts beside it. Query failures are 400, body failures 422 (lib/http/validation.ts).
import * as v from 'valibot';
import { object } from '../../domain/schema.ts';
import { int, queryInt } from '../../domain/schema-numbers.ts';
import { isBlankBody, MAX_COMMENT_BODY, MAX_COMMENT_LIMIT, withinBodyLimit } from './comments.ts';
import { notePath } from '../kernel/params.ts';
import { MAX_VERSION_DESCRIPTION, MAX_VERSION_LIMIT, MAX_VERSION_NAME } from './versions.ts';

const uuid = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `must be a ${what} id`),
  );
const ref = v.pipe(
  v.string(),
  v.regex(/^(note_content|version:[0-9a-f-]{36})$/, 'must be note_content or version:{id}'),
);
const flag = v.pipe(
  v.picklist(['true', 'false']),
  v.transform((s) => s === 'true'),
);
const isoDate = v.pipe(
  v.string(),
  v.regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'must be an ISO-8601 date-time',
  ),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO-8601 date-time'),
);

export const versionPath = object({ ...notePath.entries, versionId: uuid('version') });
export const commentPath = object({ ...notePath.entries, commentId: uuid('comment') });

export const versionsQuery = object({
  named_only: v.optional(flag),
  q: v.optional(v.pipe(v.string(), v.maxLength(200))),
  created_by: v.optional(v.pipe(v.string(), v.maxLength(64))),
  created_after: v.optional(isoDate),
  created_before: v.optional(isoDate),
  page: v.optional(queryInt(1)),
  limit: v.optional(queryInt(1, MAX_VERSION_LIMIT)),
});
export const compareQuery = object({ base: ref, target: ref });

const versionName = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(MAX_VERSION_NAME),
  v.regex(/\S/, 'must not be blank'),
);
const versionDescription = v.pipe(v.string(), v.maxLength(MAX_VERSION_DESCRIPTION));
export const createVersionBody = object({
  name: versionName,
  description: v.optional(versionDescription),
  base: v.optional(ref),
});
export const updateVersionBody = v.pipe(
  object({
    base: v.pipe(v.string(), v.regex(/^version:[0-9a-f-]{36}$/, 'must be version:{id}')),
    name: v.optional(versionName),
    description: v.optional(versionDescription),
  }),
  v.forward(
    v.check((b) => b.name !== undefined || b.description !== undefined, 'send name, description or both'),
    ['name'],
  ),
);

const status = v.picklist(['open', 'hidden']);
export const commentsQuery = object({
  page: v.optional(queryInt(1)),
  limit: v.optional(queryInt(1, MAX_COMMENT_LIMIT)),
  sort: v.optional(v.picklist(['asc', 'desc'])),
  threadId: v.optional(uuid('thread')),
  commentStatus: v.optional(status),
  threadStatus: v.optional(status),
  isThreadHead: v.optional(
    v.pipe(
      v.picklist(['true']),
      v.transform(() => true as const),
    ),
  ),
});

// Characters are Unicode code points, as JSON Schema's minLength/maxLength count them (valibot's
// count UTF-16 units): the metadata states them for the OpenAPI document, the checks enforce them.
const commentBody = v.pipe(
  v.string(),
  v.check((s) => !isBlankBody(s), 'must not be blank (only invisible characters)'),
  v.check(withinBodyLimit, `must be at most ${MAX_COMMENT_BODY} characters`),
  v.metadata({ minLength: 1, maxLength: MAX_COMMENT_BODY }),
  v.description(
    `plain text, 1..${MAX_COMMENT_BODY} characters (Unicode code points), not blank: not only white ` +
      `space, control or format characters (zero-width space and joiners, byte-order mark) or other ` +
      `default-ignorable ones`,
  ),
);
export const createCommentBody = object({
  body: commentBody,
  anchor: v.optional(
    object({
      offset: v.pipe(int(), v.minValue(0)),
      length: v.pipe(int(), v.minValue(1)),
    }),
  ),
  threadId: v.optional(uuid('thread')),
});
export const updateCommentBody = object({ body: commentBody });
