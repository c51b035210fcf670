// GET /api/v1/users/{id}/summary: a user with privacy applied, without the article page.
import { userSummaries } from '#lib/news/wiring.ts';
import { idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) =>
  ok(await userSummaries().userSummary(path.id)),
);
