// News API routes for npm run bench, over a 10,000-article import: the news page costs the same
// for page 1 and page 500 (both routes below carry the same budget and are measured separately).
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';
import { generateNewsData } from '../../seed/news.ts';

const ID_BASE = 1_000_000;
const ARTICLES = 10_000;

export const scenarios: BenchScenarios = async () => {
  const { importIntoTable } = await import('../../seed/import-news.ts');
  const data = generateNewsData({ users: 200, tags: 20, articles: ARTICLES, idBase: ID_BASE });
  const started = performance.now();
  await importIntoTable(data);
  process.stderr.write(
    `news: imported ${ARTICLES} articles in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );

  const article = (i: number) => ID_BASE + 1 + (i % ARTICLES);
  const user = (i: number) => ID_BASE + 1 + (i % data.users.length);
  const tag = (i: number) => ID_BASE + 1 + (i % data.tags.length);
  const get = (path: string): BenchRequest => ({ method: 'GET', path });
  const route = (
    r: string,
    budget: number,
    request: (i: number) => BenchRequest,
    expectStatus = 200,
    label?: string,
  ): BenchRoute => ({ route: r, label, budget, expectStatus, request });

  const internalHeaders = {
    Origin: process.env.INTERNAL_EDGE_ORIGIN!,
    Host: process.env.INTERNAL_API_HOST!,
    Key: process.env.INTERNAL_API_KEY!,
  };
  return [
    route('GET /api/v1/news', 2, () => get('/api/v1/news?page=1&perPage=20'), 200, 'page 1 of 500'),
    route('GET /api/v1/news', 2, () => get('/api/v1/news?page=500&perPage=20'), 200, 'page 500 of 500'),
    route('GET /api/v1/news/latest', 2, () => get('/api/v1/news/latest?count=20')),
    route('GET /api/v1/news/{id}', 2, (i) => get(`/api/v1/news/${article(i)}?excerpt=true`)),
    route('GET /api/v1/news/{id}/summary', 2, (i) => get(`/api/v1/news/${article(i)}/summary`)),
    route('GET /api/v1/users/{id}', 3, (i) => get(`/api/v1/users/${user(i)}?page=${1 + (i % 3)}`)),
    route('GET /api/v1/users/{id}/summary', 3, (i) => get(`/api/v1/users/${user(i)}/summary`)),
    route('GET /api/v1/tags/{id}', 2, (i) => get(`/api/v1/tags/${tag(i)}`)),
    route('GET /api/v1/tags/{id}/summary', 2, (i) => get(`/api/v1/tags/${tag(i)}/summary`)),
    route('GET /api/v1/status/web-api', 3, () => get('/api/v1/status/web-api')),
    route(
      'GET /api/internal/v1/csrf',
      0,
      () => ({ method: 'GET', path: '/api/internal/v1/csrf', headers: internalHeaders }),
      200,
      'internal edge',
    ),
    route(
      'GET /api/internal/v1/csrf',
      0,
      () => ({
        method: 'GET',
        path: '/api/internal/v1/csrf',
        headers: { ...internalHeaders, 'Sec-Fetch-Mode': 'cors' },
      }),
      404,
      'browser',
    ),
  ];
};
