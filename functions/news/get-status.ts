// GET /api/v1/status/web-api: live status and counters; 503 with the offline body when the data is
// unreachable.
import { ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';
import { statusOrOffline } from '#lib/news/http/status.ts';
import { status } from '#lib/news/wiring.ts';

export const handler = newsOperation({}, async () => ok(await statusOrOffline(() => status().status())));
