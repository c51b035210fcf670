// DynamoDB adapter of the import: reads the catalog (the news list's rank items) and which users
// and tags exist; writes a plan with BatchWriteItem, several batches in flight, the news list last.
import { BatchGetCommand, BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { newsKeys as k, type Key } from '../../data/keys.ts';
import type { CatalogEntry } from '../model.ts';
import type { ImportPlan, ImportStore, RankChange } from '../ports.ts';
import { CONCURRENCY, listKey, pool, sleep, table, toEntry, type Item } from './dynamo-shared.ts';

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

const BATCH = 25;

export class DynamoImportStore implements ImportStore {
  async loadCatalog(): Promise<CatalogEntry[]> {
    const out: CatalogEntry[] = [];
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: table(),
          ExclusiveStartKey,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rank)',
          ExpressionAttributeValues: { ':pk': k.newsList, ':rank': k.rankPrefix },
        }),
      );
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
        const res = await documentClient().send(
          new BatchGetCommand({
            RequestItems: {
              [table()]: {
                Keys: keys,
                ProjectionExpression: '#id',
                ExpressionAttributeNames: { '#id': 'id' },
              },
            },
          }),
        );
        for (const item of res.Responses?.[table()] ?? []) found.add(item.id as number);
        keys = res.UnprocessedKeys?.[table()]?.Keys ?? [];
      }
    });
    return found;
  }

  existingUsers(ids: number[]) {
    return this.existing(ids, k.user);
  }
  existingTags(ids: number[]) {
    return this.existing(ids, k.tag);
  }

  async applyImport(plan: ImportPlan, progress: (done: number, total: number) => void): Promise<void> {
    const rankWrite = (c: RankChange): WriteRequest => {
      const key = k.rank(listKey(c.list), c.rank);
      if (!c.entry) return { DeleteRequest: { Key: key } };
      const item: Item = { ...key, type: 'newsRank', articleId: c.entry.id };
      if (c.list.kind === 'news')
        Object.assign(item, {
          created: c.entry.created,
          authors: c.entry.authors,
          tags: c.entry.tags,
          total: plan.newsTotal,
        });
      return { PutRequest: { Item: item } };
    };
    const entities: WriteRequest[] = [
      ...plan.articles.map((a) => ({
        PutRequest: { Item: { ...k.article(a.id), type: 'newsArticle', ...a } },
      })),
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
    const advance = (n: number) => {
      done += n;
      progress(done, total);
    };
    await this.batchWrite(entities, advance);
    await pool(counts, CONCURRENCY, async ([key, n]) => {
      await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: key,
          UpdateExpression: 'SET articlesCount = :n',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':n': n },
        }),
      );
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
        const res = await documentClient().send(
          new BatchWriteCommand({ RequestItems: { [table()]: pending } }),
        );
        const left = (res.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
        advance(pending.length - left.length);
        pending = left;
      }
    });
  }
}
