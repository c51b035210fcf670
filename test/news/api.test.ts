// The News API end to end: a data set is imported through the domain (as `import-news` does), then
// every endpoint is read over HTTP and compared field by field with the data set. Every response
// is validated against openapi/news.json. This is the only test file that imports articles (the
// news list is global), and its tests run in order.
import { beforeAll, describe, expect, it } from 'vitest';
import { metered } from '../../lib/data/metering.ts';
import { DynamoImportStore } from '../../lib/news/adapters/dynamo-import.ts';
import { DynamoNewsReader } from '../../lib/news/adapters/dynamo-reader.ts';
import { importNews, ImportValidationError } from '../../lib/news/import.ts';
import { fullNews } from '../../lib/news/wiring.ts';
import { generateNewsData } from '../../infra/seed/news.ts';
import { http, type HttpResponse } from '../support/http.ts';
import { expectDocumented } from '../support/openapi.ts';
import { article, articles, dataSet, newestFirst, users } from './data.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
const store = new DynamoImportStore();
const reader = new DynamoNewsReader();
const BUDGET = {
  news: 2,
  latest: 2,
  article: 2,
  summary: 2,
  tag: 2,
  tagSummary: 2,
  user: 3,
  userSummary: 3,
} as const;

async function get(path: string, budget?: number): Promise<HttpResponse> {
  const res = await http('GET', path);
  expectDocumented('news', 'GET', path, res);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (local && budget !== undefined)
    expect(
      Number(res.headers.get('x-local-dynamo-requests')),
      `${path} DynamoDB requests`,
    ).toBeLessThanOrEqual(budget);
  return res;
}
const okBody = async (path: string, budget?: number) => {
  const res = await get(path, budget);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  expect(res.body.error).toBe(false);
  return res.body.response;
};
const NOT_FOUND = { error: true, response: 'notFound' };
const BAD_REQUEST = { error: true, response: 'badRequest' };

const order = newestFirst(articles);
const authoredBy = (u: number) => newestFirst(articles.filter((a) => a.authors.includes(u)));

beforeAll(async () => {
  await importNews(dataSet, store);
});

describe('news pages', () => {
  it('defaults to page 1 of 5, newest first, ties by id descending', async () => {
    const page = await okBody('/api/v1/news', BUDGET.news);
    expect(page).toEqual({ articles: order.slice(0, 5), articlesCount: 45, page: 1, pages: 9, perPage: 5 });
    expect(order.indexOf(3)).toBeLessThan(order.indexOf(2)); // same created: higher id first
  });

  it('first, middle, last and past-the-end pages', async () => {
    expect(await okBody('/api/v1/news?page=1&perPage=10', BUDGET.news)).toEqual({
      articles: order.slice(0, 10),
      articlesCount: 45,
      page: 1,
      pages: 5,
      perPage: 10,
    });
    expect(await okBody('/api/v1/news?page=3&perPage=10', BUDGET.news)).toEqual({
      articles: order.slice(20, 30),
      articlesCount: 45,
      page: 3,
      pages: 5,
      perPage: 10,
    });
    expect(await okBody('/api/v1/news?page=5&perPage=10', BUDGET.news)).toEqual({
      articles: order.slice(40),
      articlesCount: 45,
      page: 5,
      pages: 5,
      perPage: 10,
    });
    expect(await okBody('/api/v1/news?page=6&perPage=10', BUDGET.news)).toEqual({
      articles: [],
      articlesCount: 45,
      page: 6,
      pages: 5,
      perPage: 10,
    });
    expect(await okBody('/api/v1/news?page=1000000', BUDGET.news)).toEqual({
      articles: [],
      articlesCount: 45,
      page: 1000000,
      pages: 9,
      perPage: 5,
    });
    expect(await okBody('/api/v1/news?page=7&perPage=7', BUDGET.news)).toEqual({
      articles: order.slice(42),
      articlesCount: 45,
      page: 7,
      pages: 7,
      perPage: 7,
    });
  });

  it('perPage up to 100; unknown query parameters are ignored', async () => {
    expect((await okBody('/api/v1/news?perPage=100&_=123', BUDGET.news)).articles).toEqual(order);
    expect((await okBody('/api/v1/news?perPage=1&page=45', BUDGET.news)).articles).toEqual([order[44]]);
  });

  it('latest: 5 by default, count up to 100', async () => {
    expect(await okBody('/api/v1/news/latest', BUDGET.latest)).toEqual(order.slice(0, 5));
    expect(await okBody('/api/v1/news/latest?count=3', BUDGET.latest)).toEqual(order.slice(0, 3));
    expect(await okBody('/api/v1/news/latest?count=100', BUDGET.latest)).toEqual(order);
  });
});

describe('articles', () => {
  it('an article without excerpt unless excerpt=true (or 1)', async () => {
    const a = article(12);
    const full = {
      id: 12,
      authors: a.authors,
      editors: a.editors,
      created: a.created,
      updated: a.updated,
      body: a.body,
      tags: a.tags,
    };
    for (const q of ['', '?excerpt=false', '?excerpt=0']) {
      const body = await okBody(`/api/v1/news/12${q}`, BUDGET.article);
      expect(body).toEqual(full);
      expect('excerpt' in body).toBe(false);
    }
    for (const q of ['?excerpt=true', '?excerpt=1']) {
      expect(await okBody(`/api/v1/news/12${q}`, BUDGET.article)).toEqual({
        ...full,
        excerpt: 'First paragraph of article 12.',
      });
    }
    expect((await okBody('/api/v1/news/20?excerpt=true', BUDGET.article)).excerpt).toBe('Stored excerpt 20');
  });

  it('a summary: first author and excerpt', async () => {
    const a = article(15);
    expect(await okBody('/api/v1/news/15/summary', BUDGET.summary)).toEqual({
      id: 15,
      author: 101,
      created: a.created,
      updated: a.updated,
      excerpt: 'First paragraph of article 15.',
      tags: a.tags,
    });
    expect((await okBody('/api/v1/news/30/summary', BUDGET.summary)).excerpt).toBe('Stored excerpt 30');
  });

  it('unknown ids are 404 notFound, identical to an unknown route', async () => {
    const route = await http('GET', '/api/v1/no-such-route');
    for (const path of [
      '/api/v1/news/999999',
      '/api/v1/news/999999/summary',
      '/api/v1/users/999999',
      '/api/v1/users/999999/summary',
      '/api/v1/tags/999999',
      '/api/v1/tags/999999/summary',
    ]) {
      const res = await get(path, 3);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.text).toBe(route.text);
    }
  });
});

describe('users and privacy', () => {
  const u101 = users[0];
  it('level 1/2 everywhere: every value, avatar, articles newest first 20 per page', async () => {
    const list = authoredBy(101);
    expect(list).toHaveLength(45);
    const user = await okBody('/api/v1/users/101', BUDGET.user);
    expect(user).toEqual({
      id: 101,
      created: u101.created,
      updated: u101.updated,
      lastOnline: u101.lastOnline,
      name: 'Name101',
      surname: 'Surname101',
      nickname: 'nick101',
      dateOfBirth: u101.dateOfBirth,
      bio: 'Bio of 101',
      roles: [1, 3],
      articles: list.slice(0, 20),
      articlesCount: 45,
      page: 1,
      pages: 3,
      perPage: 20,
      hasAvatar: true,
      avatar: u101.avatar,
      privacy: u101.privacy,
    });
    expect(Object.keys(user)).toEqual([
      'id',
      'created',
      'updated',
      'lastOnline',
      'name',
      'surname',
      'nickname',
      'dateOfBirth',
      'bio',
      'roles',
      'articles',
      'articlesCount',
      'page',
      'pages',
      'perPage',
      'hasAvatar',
      'avatar',
      'privacy',
    ]);
    expect(await okBody('/api/v1/users/101?page=2', BUDGET.user)).toMatchObject({
      articles: list.slice(20, 40),
      page: 2,
      pages: 3,
    });
    expect(await okBody('/api/v1/users/101?page=3', BUDGET.user)).toMatchObject({
      articles: list.slice(40),
      page: 3,
      pages: 3,
    });
    expect(await okBody('/api/v1/users/101?page=4', BUDGET.user)).toMatchObject({
      articles: [],
      articlesCount: 45,
      page: 4,
      pages: 3,
      perPage: 20,
    });
  });

  it('level 0 everywhere: nulls, articles null, articlesCount -1, pages 1, no avatar', async () => {
    const u = users[1];
    const expected = {
      id: 102,
      created: u.created,
      updated: u.updated,
      lastOnline: null,
      name: null,
      surname: null,
      nickname: null,
      dateOfBirth: null,
      bio: null,
      roles: [1],
      articles: null,
      articlesCount: -1,
      page: 1,
      pages: 1,
      perPage: 20,
      hasAvatar: false,
      avatar: null,
      privacy: u.privacy,
    };
    expect(await okBody('/api/v1/users/102', BUDGET.user)).toEqual(expected);
    expect(await okBody('/api/v1/users/102?page=2', BUDGET.user)).toEqual({ ...expected, page: 2 });
    const { articles: _a, page: _p, pages: _ps, perPage: _pp, ...summary } = expected;
    expect(await okBody('/api/v1/users/102/summary', BUDGET.userSummary)).toEqual(summary);
  });

  it('mixed levels; dateOfBirth level 1 is the day and month in 1970 at 00:00 UTC', async () => {
    const u = users[2];
    const list = authoredBy(103);
    expect(await okBody('/api/v1/users/103', BUDGET.user)).toEqual({
      id: 103,
      created: u.created,
      updated: u.updated,
      lastOnline: null,
      name: 'Name103',
      surname: null,
      nickname: null,
      dateOfBirth: Date.UTC(1970, 6, 14) / 1000,
      bio: 'Bio of 103',
      roles: [1],
      articles: list,
      articlesCount: 15,
      page: 1,
      pages: 1,
      perPage: 20,
      hasAvatar: false,
      avatar: null,
      privacy: u.privacy,
    });
    const summary = await okBody('/api/v1/users/104/summary', BUDGET.userSummary);
    expect(summary).toMatchObject({
      lastOnline: null,
      name: 'Name104',
      dateOfBirth: Date.UTC(1970, 2, 1) / 1000,
      articlesCount: 0,
    }); // 29 Feb -> 1 Mar 1970
    expect(Object.keys(summary)).toEqual([
      'id',
      'created',
      'updated',
      'lastOnline',
      'name',
      'surname',
      'nickname',
      'dateOfBirth',
      'bio',
      'roles',
      'articlesCount',
      'hasAvatar',
      'avatar',
      'privacy',
    ]);
  });
});

describe('tags', () => {
  it('name and description; the summary counts articles', async () => {
    expect(await okBody('/api/v1/tags/201', BUDGET.tag)).toEqual({
      name: 'World',
      description: 'World news',
    });
    expect(await okBody('/api/v1/tags/201/summary', BUDGET.tagSummary)).toEqual({
      name: 'World',
      description: 'World news',
      articlesCount: 22,
    });
    expect(await okBody('/api/v1/tags/202/summary', BUDGET.tagSummary)).toEqual({
      name: 'Tech',
      description: 'Technology',
      articlesCount: 15,
    });
    expect(await okBody('/api/v1/tags/203/summary', BUDGET.tagSummary)).toEqual({
      name: 'Empty',
      description: 'No article carries it',
      articlesCount: 0,
    });
  });
});

describe('bad input is 400 badRequest on every route, never 5xx', () => {
  const cases: Record<string, string[]> = {
    '/api/v1/news': [
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page=',
      'page=1000001',
      'perPage=abc',
      'perPage=0',
      'perPage=101',
      'page=01',
    ],
    '/api/v1/news/latest': ['count=0', 'count=101', 'count=abc', 'count=2.5'],
    '/api/v1/news/12': ['excerpt=maybe', 'excerpt=TRUE', 'excerpt='],
    '/api/v1/users/101': ['page=0', 'page=x', 'page=1000001'],
  };
  it('invalid query parameters', async () => {
    for (const [path, queries] of Object.entries(cases)) {
      for (const q of queries) {
        const res = await get(`${path}?${q}`);
        expect(res.status, `${path}?${q}`).toBe(400);
        expect(res.body).toEqual(BAD_REQUEST);
      }
    }
  });
  it('non-integer or non-positive ids', async () => {
    for (const base of [
      '/api/v1/news/{id}',
      '/api/v1/news/{id}/summary',
      '/api/v1/users/{id}',
      '/api/v1/users/{id}/summary',
      '/api/v1/tags/{id}',
      '/api/v1/tags/{id}/summary',
    ]) {
      for (const id of ['abc', '0', '-3', '1.5', '1e3', '0012', '99999999999999999999']) {
        const path = base.replace('{id}', id);
        const res = await get(path);
        expect(res.status, path).toBe(400);
        expect(res.body).toEqual(BAD_REQUEST);
      }
    }
  });
});

describe('import', () => {
  it('rejects an invalid document naming record and field, and writes nothing', async () => {
    const bad = {
      users: [{ ...users[0], id: 901, privacy: { ...users[0].privacy, dateOfBirth: 3 } }],
      tags: [{ id: 902, name: '' }],
      articles: [
        { ...article(1), id: 903, authors: [101, 'x'] },
        { ...article(2), id: 904, tags: [777777] },
        { ...article(3), id: 905, colour: 'red' },
      ],
    };
    const err = await importNews(bad, store).catch((e) => e);
    expect(err).toBeInstanceOf(ImportValidationError);
    const text = (err as ImportValidationError).problems.join('\n');
    expect(text).toContain('users[0] (id 901) privacy.dateOfBirth');
    expect(text).toContain('tags[0] (id 902) name');
    expect(text).toContain('articles[0] (id 903) authors.1');
    expect(text).toContain('articles (id 904) tags: unknown tag 777777');
    expect(text).toContain('articles[2] (id 905) (record): unknown field(s) colour');
    expect(await reader.getUser(901)).toBeUndefined();
    expect(await reader.getArticle(904)).toBeUndefined();
    expect((await fullNews().newsPage(1, 5)).articlesCount).toBe(45);
    expect(await importNews({ articles: 'nope' }, store).catch((e) => e.message)).toMatch(
      /document articles/,
    );
  });

  it('re-importing the same data changes nothing', async () => {
    const summary = await importNews(dataSet, store);
    expect(summary).toMatchObject({ articles: 45, articlesTotal: 45 });
    // Entities only (articles, users, tags) and the TOTAL item: no rank slot changed.
    expect(summary.writes).toBe(45 + 4 + 3 + 1);
    expect(await okBody('/api/v1/news?perPage=100')).toMatchObject({ articles: order, articlesCount: 45 });
  });

  it('re-importing changed articles keeps news, latest, user lists and counts correct', async () => {
    const moved = { ...article(1), created: 1_000, authors: [104], tags: [203] }; // was newest by 101, now oldest by 104
    const retagged = { ...article(2), tags: [] }; // loses tag 201
    const added = { ...article(46), created: 2_000_000_000, authors: [103, 101], tags: [201] };
    await importNews({ articles: [moved, retagged, added] }, store);
    const next = articles.map((a) => (a.id === 1 ? moved : a.id === 2 ? retagged : a)).concat(added);
    const expected = newestFirst(next);
    expect(expected[0]).toBe(46);
    expect(expected.at(-1)).toBe(1);
    expect(await okBody('/api/v1/news?perPage=100')).toMatchObject({
      articles: expected,
      articlesCount: 46,
      pages: 1,
    });
    expect(await okBody('/api/v1/news/latest?count=2')).toEqual(expected.slice(0, 2));
    const by = (u: number) => newestFirst(next.filter((a) => a.authors.includes(u)));
    expect(await okBody('/api/v1/users/101?page=3')).toMatchObject({
      articles: by(101).slice(40),
      articlesCount: 45,
      pages: 3,
    });
    expect((await okBody('/api/v1/users/101')).articles).toEqual(by(101).slice(0, 20));
    expect(await okBody('/api/v1/users/104')).toMatchObject({ articles: [1], articlesCount: 1 });
    expect(await okBody('/api/v1/users/103')).toMatchObject({ articles: by(103), articlesCount: 16 });
    expect((await okBody('/api/v1/tags/201/summary')).articlesCount).toBe(22); // -2 +46
    expect((await okBody('/api/v1/tags/203/summary')).articlesCount).toBe(1);
    expect(await okBody('/api/v1/news/1/summary')).toMatchObject({
      author: 104,
      created: 1_000,
      tags: [203],
    });
  });
});

describe('paging cost does not depend on the page number', () => {
  it('2,000 more articles: page 1 and page 400 cost one DynamoDB request each', async () => {
    const big = generateNewsData({
      users: 20,
      tags: 5,
      articles: 2000,
      idBase: 10_000,
      newest: 1_500_000_000,
    });
    const started = performance.now();
    const summary = await importNews(big, store);
    console.log(
      `imported 2,000 articles in ${((performance.now() - started) / 1000).toFixed(1)} s (${summary.writes} writes)`,
    );
    expect(summary.articlesTotal).toBe(2046);
    const first = await metered(() => fullNews().newsPage(1, 5));
    const deep = await metered(() => fullNews().newsPage(400, 5));
    expect(first.meter.requests).toBe(1);
    expect(deep.meter.requests).toBe(first.meter.requests);
    expect(deep.result.articles).toHaveLength(5);
    const sorted = newestFirst([
      ...articles.slice(2),
      { ...article(1), created: 1_000 },
      { ...article(2), tags: [] },
      { ...article(46), created: 2_000_000_000 },
      ...big.articles,
    ]);
    expect(deep.result.articles).toEqual(sorted.slice(1995, 2000));
    expect(await okBody('/api/v1/news?page=400', BUDGET.news)).toEqual(deep.result);
    expect(await okBody('/api/v1/news?page=410', BUDGET.news)).toEqual({
      articles: sorted.slice(2045),
      articlesCount: 2046,
      page: 410,
      pages: 410,
      perPage: 5,
    });
  });
});
