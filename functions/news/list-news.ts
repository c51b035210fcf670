// GET /api/v1/news: a page of article ids, newest first.
import { news } from '#lib/news/service.ts';
import { newsQuery } from '#lib/news/params.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({ query: newsQuery }, async ({ query }) => ok(await news.newsPage(query.page, query.perPage)));
