// What the News DynamoDB adapters share: the table, item shapes, bounded concurrency.
import { config } from '../../config.ts';
import { newsKeys as k } from '../../data/keys.ts';
import type { CatalogEntry } from '../model.ts';
import type { ListRef } from '../ports.ts';

export type Item = Record<string, unknown>;

export const table = (): string => config.tableName;
export const CONCURRENCY = 8;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const strip = <T>(item: Item | undefined): T | undefined => {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as T;
};
export const listKey = (list: ListRef): string =>
  list.kind === 'news' ? k.newsList : k.userArticles(list.userId);
export const toEntry = (i: Item): CatalogEntry => ({
  id: i.articleId as number,
  created: i.created as number,
  authors: i.authors as number[],
  tags: i.tags as number[],
});

/** Runs `task` over `items` with at most `limit` in flight. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}
