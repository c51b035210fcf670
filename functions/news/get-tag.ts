// GET /api/v1/tags/{id}: a tag's name and description.
import { news } from '#lib/news/service.ts';
import { idPath } from '#lib/news/params.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) => ok(await news.tag(path.id)));
