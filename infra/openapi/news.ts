// OpenAPI 3.1 document of the News API, from the valibot schemas that validate its parameters and
// response schemas written beside them. Every operation documents each status it can return.
import * as v from 'valibot';
import { document, inputSchema, json, type RoutedOperation } from './build.ts';
import { NEWS_ROUTES } from '../../functions/news/routes.ts';
import { articleQuery, idPath, latestQuery, LIMITS, newsQuery, pageQuery } from '../../lib/news/params.ts';
import { CSRF_TOKEN_LIFETIME } from '../../lib/news/csrf.ts';
import { USER_ARTICLES_PER_PAGE } from '../../lib/news/model.ts';

const ok = <T extends v.GenericSchema>(response: T) => v.strictObject({ error: v.literal(false), response });
const failure = <T extends v.GenericSchema>(response: T) =>
  v.strictObject({ error: v.literal(true), response });
const int = v.pipe(v.number(), v.integer());
const ids = v.array(int);
const picture = v.strictObject({
  url: v.pipe(v.string(), v.description('host and path, no scheme')),
  type: v.pipe(v.string(), v.description('image format: webp, png, jpeg, gif, avif')),
});
const privacy = v.strictObject({
  lastOnline: int,
  name: int,
  surname: int,
  nickname: int,
  dateOfBirth: v.pipe(int, v.description('0 hidden, 1 day and month only (in 1970, 00:00 UTC), 2 full')),
  bio: int,
  articles: int,
});

const newsPage = v.strictObject({ articles: ids, articlesCount: int, page: int, pages: int, perPage: int });
const article = v.strictObject({
  id: int,
  authors: ids,
  editors: ids,
  created: int,
  updated: int,
  body: v.string(),
  excerpt: v.pipe(v.optional(v.string()), v.description('only with excerpt=true')),
  tags: ids,
});
const articleSummary = v.strictObject({
  id: int,
  author: int,
  created: int,
  updated: int,
  excerpt: v.string(),
  tags: ids,
});
const userFields = {
  id: int,
  created: int,
  updated: int,
  lastOnline: v.nullable(int),
  name: v.nullable(v.string()),
  surname: v.nullable(v.string()),
  nickname: v.nullable(v.string()),
  dateOfBirth: v.nullable(int),
  bio: v.nullable(v.string()),
  roles: ids,
};
const tail = {
  hasAvatar: v.boolean(),
  avatar: v.nullable(v.strictObject({ 100: picture, orig: picture })),
  privacy,
};
const user = v.strictObject({
  ...userFields,
  articles: v.pipe(v.nullable(ids), v.description('null at privacy.articles 0')),
  articlesCount: v.pipe(int, v.description('-1 at privacy.articles 0')),
  page: int,
  pages: v.pipe(int, v.description('1 at privacy.articles 0')),
  perPage: v.pipe(int, v.description(`always ${USER_ARTICLES_PER_PAGE}`)),
  ...tail,
});
const userSummary = v.strictObject({ ...userFields, articlesCount: int, ...tail });
const tag = v.strictObject({ name: v.string(), description: v.string() });
const tagSummary = v.strictObject({ name: v.string(), description: v.string(), articlesCount: int });
const status = v.strictObject({ vg: v.boolean(), uptime: int, errorsCount: int, requestsServed: int });

/** The News tags; every operation is public (the document gives each `security: []`). */
const TAGS = {
  News: 'Articles and their summaries',
  Users: 'Authors, with per-field privacy',
  Tags: 'Tags and how many articles carry them',
  Status: 'Live counters of the service',
  Internal: 'For the internal edge only',
} as const;

const errorBody = (name: string) => json(failure(v.literal(name)), name);
const errors = {
  400: errorBody('badRequest'),
  404: errorBody('notFound'),
  405: { ...errorBody('methodNotAllowed'), headers: { Allow: { schema: { type: 'string' } } } },
  429: { ...errorBody('tooManyRequests'), headers: { 'Retry-After': { schema: { type: 'string' } } } },
  500: errorBody('internalError'),
  503: { ...errorBody('serviceUnavailable'), headers: { 'Retry-After': { schema: { type: 'string' } } } },
};
const { 400: badRequest, 404: notFound, ...always } = errors;

/** OpenAPI parameters from an object schema (every member a string in the URL). */
const params = (where: 'path' | 'query', s: v.GenericSchema) => {
  const js = inputSchema(s) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema,
  }));
};

const get = (
  description: string,
  body: v.GenericSchema,
  opts: { path?: v.GenericSchema; query?: v.GenericSchema; notFound?: boolean; badRequest?: boolean } = {},
): { get: RoutedOperation } => ({
  get: {
    description,
    parameters: [
      ...(opts.path ? params('path', opts.path) : []),
      ...(opts.query ? params('query', opts.query) : []),
    ],
    responses: {
      200: json(ok(body)),
      ...(opts.badRequest === false ? {} : { 400: badRequest }),
      ...(opts.notFound ? { 404: notFound } : {}),
      ...always,
    },
  },
});

export const buildNewsDocument = () =>
  document({
    title: 'News API',
    version: '0.0.3~alpha',
    description: [
      'Articles, users with per-field privacy, tags, live status and the internal anti-forgery token, as the News interface document defines them.',
      'Every body is {"error": bool, "response": ...}. Timestamps are Unix seconds, ids integers.',
      `Integers in paths and queries are canonical positive decimals; page <= ${LIMITS.maxPage}, ` +
        `perPage and count 1..${LIMITS.maxPerPage}; booleans true/false/1/0; otherwise 400 badRequest. ` +
        `Unknown query parameters are ignored.`,
      'An unknown id or route is 404 {"error":true,"response":"notFound"}. See docs/news.md.',
    ].join(' '),
    security: false,
    tags: TAGS,
    routes: NEWS_ROUTES.rows,
    paths: {
      '/api/internal/v1/csrf': {
        get: {
          description:
            `Only for the internal edge: Origin, Host and Key headers must equal the deployment's values and ` +
            `no Sec-Fetch-* header may be present; anything else is 404 notFound, like an unknown route. The ` +
            `token is <nonce>.<expiry>.<hmac>, URL-safe, valid ${CSRF_TOKEN_LIFETIME} s.`,
          parameters: ['Origin', 'Host', 'Key'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          responses: { 200: json(ok(v.string())), 404: notFound, ...always },
        },
      },
      '/api/v1/news': get(
        'Defaults: page 1, perPage 5. Newest first by created, ties by id descending. A page past the ' +
          'end has no articles and the real articlesCount and pages.',
        newsPage,
        { query: newsQuery },
      ),
      '/api/v1/news/latest': get('Up to count ids (default 5), newest first.', ids, { query: latestQuery }),
      '/api/v1/news/{id}': get(
        'excerpt (default false) only with excerpt=true: the stored excerpt, else the plain text of the first paragraph (<= 300 characters).',
        article,
        { path: idPath, query: articleQuery, notFound: true },
      ),
      '/api/v1/news/{id}/summary': get(
        'author is the first of authors; excerpt always present.',
        articleSummary,
        { path: idPath, notFound: true },
      ),
      '/api/v1/users/{id}': get(
        `Privacy applied per field; page defaults to 1; articles: the user's authored articles, newest first, ${USER_ARTICLES_PER_PAGE} per page.`,
        user,
        { path: idPath, query: pageQuery, notFound: true },
      ),
      '/api/v1/users/{id}/summary': get('The user without articles, page, pages, perPage.', userSummary, {
        path: idPath,
        notFound: true,
      }),
      '/api/v1/tags/{id}': get("The tag's name and description.", tag, {
        path: idPath,
        notFound: true,
      }),
      '/api/v1/tags/{id}/summary': get(
        'articlesCount: the number of articles carrying the tag.',
        tagSummary,
        { path: idPath, notFound: true },
      ),
      '/api/v1/status/web-api': {
        get: {
          description:
            'uptime: seconds since the stored start time; requestsServed: 2XX responses; errorsCount: 5XX ' +
            'responses (News API, all containers, flushed at most every 10 s per container). 503 with the ' +
            'offline body when the data is unreachable or no function can run.',
          responses: {
            200: json(ok(status)),
            ...always,
            503: {
              ...json(
                failure(
                  v.strictObject({
                    vg: v.literal(false),
                    uptime: v.literal(-1),
                    errorsCount: v.literal(-1),
                    requestsServed: v.literal(-1),
                  }),
                ),
                'offline',
              ),
              headers: { 'Retry-After': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
  });
