// GET /api/v1/tags/{id}/summary: a tag with the number of articles carrying it.
import { news } from '#lib/news/wiring.ts';
import { idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) =>
  ok(await news().tagSummary(path.id)),
);
