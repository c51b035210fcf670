import { describe, expect, it } from 'vitest';
import { importNews, ImportValidationError } from '../../../lib/news/import.ts';
import { article, newsWorld, user } from './fixture.ts';

describe('importNews', () => {
  it('writes nothing when one record is invalid, naming it', async () => {
    const w = newsWorld();
    const err = await importNews(
      { users: [user(1)], articles: [{ ...article(1, 1), authors: [] }] },
      w.imports,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ImportValidationError);
    expect(err.problems[0]).toMatch(/^articles\[0\] \(id 1\) authors/);
    expect(w.tables.users.size).toBe(0);
  });

  it('refuses an article whose author is neither in the file nor stored', async () => {
    const err = await importNews({ articles: [article(1, 1, [7])] }, newsWorld().imports).catch((e) => e);
    expect(err.problems).toEqual(['articles (id 1) authors: unknown user 7']);
  });

  it('accepts authors already stored', async () => {
    const w = newsWorld();
    await importNews({ users: [user(7)] }, w.imports);
    await expect(importNews({ articles: [article(1, 1, [7])] }, w.imports)).resolves.toMatchObject({
      articlesTotal: 1,
    });
  });

  it('derives the excerpt from the body when none is given', async () => {
    const w = newsWorld();
    await importNews(
      { users: [user(1)], articles: [{ ...article(1, 1), body: '# Title\n\nFirst *para*.' }] },
      w.imports,
    );
    expect(w.tables.articles.get(1)?.excerpt).toBe('First para.');
  });

  it('moves an article in the lists when its author changes, and recounts', async () => {
    const w = newsWorld();
    await importNews({ users: [user(1), user(2)], articles: [article(1, 1, [1])] }, w.imports);
    await importNews({ articles: [article(1, 1, [2])] }, w.imports);
    expect([w.tables.users.get(1)?.articlesCount, w.tables.users.get(2)?.articlesCount]).toEqual([0, 1]);
    expect(w.tables.ids('user:2', 1, 20)).toEqual([1]);
  });

  it('is idempotent: the same file again changes no list slot', async () => {
    const w = newsWorld();
    const file = { users: [user(1)], articles: [article(1, 1), article(2, 2)] };
    const first = await importNews(file, w.imports);
    const again = await importNews(file, w.imports);
    expect(again.writes).toBeLessThan(first.writes);
  });
});
