// The contract of the News storage ports: the in-memory and DynamoDB adapters pass this same suite.
// News ids are numbers in one shared table: each test uses its own id range.
import { describe, expect, it } from 'vitest';
import { importNews } from '../../lib/news/import.ts';
import type { ImportStore, NewsReader, StatusStore } from '../../lib/news/ports.ts';

export interface NewsStores {
  reader: NewsReader;
  imports: ImportStore;
  status: StatusStore;
}

const privacy = {
  lastOnline: 1,
  name: 1,
  surname: 1,
  nickname: 1,
  dateOfBirth: 1,
  bio: 1,
  articles: 1,
} as const;
const userOf = (id: number) => ({ id, created: 1, updated: 1, privacy });

export function newsContract(name: string, stores: () => NewsStores, base: number): void {
  describe(`${name}: news`, () => {
    it('reads what an import wrote: entities, the user list and the counts', async () => {
      const { reader, imports } = stores();
      const [u, t] = [base + 1, base + 2];
      await importNews(
        {
          users: [userOf(u)],
          tags: [{ id: t, name: 'Tag' }],
          articles: [{ id: base + 3, authors: [u], created: 5, updated: 5, body: 'Hello world.', tags: [t] }],
        },
        imports,
      );
      expect(await reader.getArticle(base + 3)).toMatchObject({ excerpt: 'Hello world.', tags: [t] });
      expect(await reader.getUser(u)).toMatchObject({ articlesCount: 1 });
      expect(await reader.getTag(t)).toMatchObject({ name: 'Tag', articlesCount: 1 });
      expect(await reader.userArticles(u, 1, 20)).toEqual([base + 3]);
      expect(await imports.existingUsers([u, base + 99])).toEqual(new Set([u]));
    });

    it('adds status counts per shard and stamps the first start', async () => {
      const { status } = stores();
      const shard = base % 16;
      const before = (await status.readStatusShards(16)).length;
      await status.addStatusCounts(shard, 2, 1, 100);
      await status.addStatusCounts(shard, 1, 0, 200);
      const shards = await status.readStatusShards(16);
      expect(shards.length).toBeGreaterThanOrEqual(Math.max(before, 1));
      expect(
        shards.some((s) => s.served >= 3 && s.errors >= 1 && s.startedAt !== undefined && s.startedAt <= 100),
      ).toBe(true);
    });
  });
}
