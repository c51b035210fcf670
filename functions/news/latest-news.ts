// GET /api/v1/news/latest: the ids of the `count` newest articles.
import { news } from '#lib/news/service.ts';
import { latestQuery } from '#lib/news/params.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({ query: latestQuery }, async ({ query }) => ok(await news.latest(query.count)));
