// GET /api/v1/users/{id}: a user with privacy applied and a page of their articles.
import { userPages } from '#lib/news/wiring.ts';
import { idPath, pageQuery } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath, query: pageQuery }, async ({ path, query }) =>
  ok(await userPages().user(path.id, query.page)),
);
