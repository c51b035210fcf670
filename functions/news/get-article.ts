// GET /api/v1/news/{id}: one article; its excerpt only with ?excerpt=true.
import { articles } from '#lib/news/wiring.ts';
import { articleQuery, idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath, query: articleQuery }, async ({ path, query }) =>
  ok(await articles().article(path.id, query.excerpt)),
);
