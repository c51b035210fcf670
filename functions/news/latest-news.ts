// GET /api/v1/news/latest: the ids of the `count` newest articles.
import { newsList } from '#lib/news/wiring.ts';
import { latestQuery } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ query: latestQuery }, async ({ query }) =>
  ok(await newsList().latest(query.count)),
);
