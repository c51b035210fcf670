// GET /api/v1/users/{id}/summary: a user with privacy applied, without the article page.
import { news } from '#lib/news/service.ts';
import { idPath } from '#lib/news/params.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) => ok(await news.userSummary(path.id)));
