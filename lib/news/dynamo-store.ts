// DynamoDB adapter of the News port. Keys come from lib/data/keys.ts (newsKeys).
import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../data/clients.ts';
import { newsKeys as k, type Key } from '../data/keys.ts';
import type { Article, CatalogEntry, NewsUser, Tag } from './model.ts';
import type { ImportPlan, ListRef, NewsStore, RankChange, StatusShard } from './store.ts';

type Item = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

const BATCH = 25;
const CONCURRENCY = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const strip = <T>(item: Item | undefined): T | undefined => {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as T;
};
const listKey = (list: ListRef): string => (list.kind === 'news' ? k.newsList : k.userArticles(list.userId));
const toEntry = (i: Item): CatalogEntry => ({ id: i.articleId as number, created: i.created as number, authors: i.authors as number[], tags: i.tags as number[] });

/** Runs `task` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

export class DynamoNewsStore implements NewsStore {
  constructor(private readonly table: () => string) {}

  private async get<T>(key: Key): Promise<T | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: key }));
    return strip<T>(Item);
  }

  getArticle(id: number) { return this.get<Article>(k.article(id)); }
  getUser(id: number) { return this.get<NewsUser>(k.user(id)); }
  getTag(id: number) { return this.get<Tag>(k.tag(id)); }

  async newsPage(start: number, size: number) {
    // From RANK#start up to the TOTAL item: a full page never reaches TOTAL (its items carry the
    // total); the last page or one past the end does.
    const { Items = [] } = await doc.send(new QueryCommand({
      TableName: this.table(), Limit: size,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': k.newsList, ':from': k.rankSk(start), ':to': k.listTotal(k.newsList).SK },
    }));
    const ranks = Items.filter((i) => String(i.SK).startsWith(k.rankPrefix));
    return { ids: ranks.map((i) => i.articleId as number), total: (Items[0]?.total as number | undefined) ?? 0 };
  }

  async userArticles(userId: number, start: number, size: number) {
    const { Items = [] } = await doc.send(new QueryCommand({
      TableName: this.table(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': k.userArticles(userId), ':from': k.rankSk(start), ':to': k.rankSk(start + size - 1) },
    }));
    return Items.map((i) => i.articleId as number);
  }

  async loadCatalog(): Promise<CatalogEntry[]> {
    const out: CatalogEntry[] = [];
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await doc.send(new QueryCommand({
        TableName: this.table(), ExclusiveStartKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rank)',
        ExpressionAttributeValues: { ':pk': k.newsList, ':rank': k.rankPrefix },
      }));
      out.push(...(page.Items ?? []).map(toEntry));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  }

  private async existing(ids: number[], key: (id: number) => Key): Promise<Set<number>> {
    const found = new Set<number>();
    const chunks: number[][] = [];
    for (let i = 0; i < ids.length; i += 100) chunks.push(ids.slice(i, i + 100));
    await pool(chunks, CONCURRENCY, async (chunk) => {
      let keys: Item[] = chunk.map((i) => ({ ...key(i) }));
      for (let attempt = 0; keys.length; attempt += 1) {
        if (attempt) await sleep(Math.min(1000, 25 * 2 ** attempt));
        const res = await doc.send(new BatchGetCommand({ RequestItems: { [this.table()]: { Keys: keys, ProjectionExpression: '#id', ExpressionAttributeNames: { '#id': 'id' } } } }));
        for (const item of res.Responses?.[this.table()] ?? []) found.add(item.id as number);
        keys = res.UnprocessedKeys?.[this.table()]?.Keys ?? [];
      }
    });
    return found;
  }

  existingUsers(ids: number[]) { return this.existing(ids, k.user); }
  existingTags(ids: number[]) { return this.existing(ids, k.tag); }

  async applyImport(plan: ImportPlan, progress: (done: number, total: number) => void): Promise<void> {
    const rankWrite = (c: RankChange): WriteRequest => {
      const key = k.rank(listKey(c.list), c.rank);
      if (!c.entry) return { DeleteRequest: { Key: key } };
      const item: Item = { ...key, type: 'newsRank', articleId: c.entry.id };
      if (c.list.kind === 'news') Object.assign(item, { created: c.entry.created, authors: c.entry.authors, tags: c.entry.tags, total: plan.newsTotal });
      return { PutRequest: { Item: item } };
    };
    const entities: WriteRequest[] = [
      ...plan.articles.map((a) => ({ PutRequest: { Item: { ...k.article(a.id), type: 'newsArticle', ...a } } })),
      ...plan.users.map((u) => ({ PutRequest: { Item: { ...k.user(u.id), type: 'newsUser', ...u } } })),
      ...plan.tags.map((t) => ({ PutRequest: { Item: { ...k.tag(t.id), type: 'newsTag', ...t } } })),
      ...plan.userListChanges.map(rankWrite),
    ];
    const counts: Array<[Key, number]> = [
      ...plan.userCounts.map(([id, n]): [Key, number] => [k.user(id), n]),
      ...plan.tagCounts.map(([id, n]): [Key, number] => [k.tag(id), n]),
    ];
    // The news list is the catalog the next import starts from: written last.
    const news: WriteRequest[] = [
      ...plan.newsListChanges.map(rankWrite),
      { PutRequest: { Item: { ...k.listTotal(k.newsList), type: 'newsTotal', total: plan.newsTotal } } },
    ];
    const total = entities.length + counts.length + news.length;
    let done = 0;
    const advance = (n: number) => { done += n; progress(done, total); };
    await this.batchWrite(entities, advance);
    await pool(counts, CONCURRENCY, async ([key, n]) => {
      await doc.send(new UpdateCommand({
        TableName: this.table(), Key: key, UpdateExpression: 'SET articlesCount = :n',
        ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':n': n },
      }));
      advance(1);
    });
    await this.batchWrite(news, advance);
  }

  /** BatchWriteItem in chunks of 25, several in flight, unprocessed items retried with backoff. */
  private async batchWrite(requests: WriteRequest[], advance: (n: number) => void): Promise<void> {
    const chunks: WriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += BATCH) chunks.push(requests.slice(i, i + BATCH));
    await pool(chunks, CONCURRENCY, async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length; attempt += 1) {
        if (attempt > 10) throw new Error('BatchWriteItem kept returning unprocessed items');
        if (attempt) await sleep(Math.min(2000, 25 * 2 ** attempt));
        const res = await doc.send(new BatchWriteCommand({ RequestItems: { [this.table()]: pending } }));
        const left = (res.UnprocessedItems?.[this.table()] ?? []) as WriteRequest[];
        advance(pending.length - left.length);
        pending = left;
      }
    });
  }

  async addStatusCounts(shard: number, served: number, errors: number, now: number): Promise<void> {
    await doc.send(new UpdateCommand({
      TableName: this.table(), Key: k.statusShard(shard),
      UpdateExpression: 'ADD served :s, errors :e SET startedAt = if_not_exists(startedAt, :now)',
      ExpressionAttributeValues: { ':s': served, ':e': errors, ':now': now },
    }));
  }

  async readStatusShards(shards: number): Promise<StatusShard[]> {
    const keys: Item[] = Array.from({ length: shards }, (_, i) => ({ ...k.statusShard(i) }));
    const read = async (Keys: Item[]) => doc.send(new BatchGetCommand({ RequestItems: { [this.table()]: { Keys } } }));
    const first = await read(keys);
    const items = [...(first.Responses?.[this.table()] ?? [])];
    const unprocessed = first.UnprocessedKeys?.[this.table()]?.Keys;
    if (unprocessed?.length) {
      const second = await read(unprocessed);
      if (second.UnprocessedKeys?.[this.table()]?.Keys?.length) throw new Error('status counters could not be read');
      items.push(...(second.Responses?.[this.table()] ?? []));
    }
    return items.map((i) => ({ served: (i.served as number) ?? 0, errors: (i.errors as number) ?? 0, startedAt: i.startedAt as number | undefined }));
  }
}
