// GET /api/v1/news: a page of article ids, newest first.
import { newsList } from '#lib/news/wiring.ts';
import { newsQuery } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ query: newsQuery }, async ({ query }) =>
  ok(await newsList().newsPage(query.page, query.perPage)),
);
