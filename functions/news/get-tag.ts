// GET /api/v1/tags/{id}: a tag's name and description.
import { tags } from '#lib/news/wiring.ts';
import { idPath } from '#lib/news/params.ts';
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({ path: idPath }, async ({ path }) => ok(await tags().tag(path.id)));
