// GET /api/v1/news/{id}/summary: first author, dates, excerpt and tags of one article.
import { articles } from '#lib/news/wiring.ts';
import { idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) =>
  ok(await articles().articleSummary(path.id)),
);
