import { describe, expect, it } from 'vitest';
import { NotFound } from '../../../lib/domain/errors.ts';
import { importNews } from '../../../lib/news/import.ts';
import { article, newsWorld, user } from './fixture.ts';

const seeded = async () => {
  const w = newsWorld();
  await importNews(
    {
      users: [user(1), user(2, 0)],
      tags: [{ id: 1, name: 'Science' }],
      articles: [article(1, 100, [1], [1]), article(2, 300, [1]), article(3, 200, [2])],
    },
    w.imports,
  );
  return w;
};

describe('NewsService', () => {
  it('pages the news list newest first with its count', async () => {
    const w = await seeded();
    expect(await w.news.newsPage(1, 2)).toEqual({
      articles: [2, 3],
      articlesCount: 3,
      page: 1,
      pages: 2,
      perPage: 2,
    });
  });

  it('returns the latest article ids', async () => {
    expect(await (await seeded()).news.latest(1)).toEqual([2]);
  });

  it('adds the excerpt only when asked', async () => {
    const w = await seeded();
    expect(await w.news.article(1, false)).not.toHaveProperty('excerpt');
    expect(await w.news.article(1, true)).toMatchObject({ excerpt: 'Body of 1.' });
  });

  it('says an unknown article does not exist', async () => {
    await expect((await seeded()).news.article(99, false)).rejects.toBeInstanceOf(NotFound);
  });

  it("lists a public user's articles newest first", async () => {
    expect(await (await seeded()).news.user(1, 1)).toMatchObject({
      articles: [2, 1],
      articlesCount: 2,
      pages: 1,
    });
  });

  it("hides a private user's fields and articles", async () => {
    const u = await (await seeded()).news.user(2, 1);
    expect(u).toMatchObject({ name: null, dateOfBirth: null, articles: null, articlesCount: -1 });
  });

  it('counts the articles of a tag', async () => {
    expect(await (await seeded()).news.tagSummary(1)).toEqual({
      name: 'Science',
      description: '',
      articlesCount: 1,
    });
  });
});
