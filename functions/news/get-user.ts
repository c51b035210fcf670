// GET /api/v1/users/{id}: a user with privacy applied and a page of their articles.
import { news } from '#lib/news/service.ts';
import { idPath, pageQuery } from '#lib/news/params.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({ path: idPath, query: pageQuery }, async ({ path, query }) => ok(await news.user(path.id, query.page)));
