// GET /api/v1/news/latest: the ids of the `count` newest articles.
import { news } from '#lib/news/wiring.ts';
import { latestQuery } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ query: latestQuery }, async ({ query }) =>
  ok(await news().latest(query.count)),
);
