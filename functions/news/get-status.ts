// GET /api/v1/status/web-api: live status and counters; 503 with the offline body when the data is unreachable.
import { news } from '#lib/news/service.ts';
import { newsOperation, ok } from '#lib/http/news.ts';

export const handler = newsOperation({}, async () => ok(await news.status()));
