// DynamoDB adapter of the request path's reads: one GetItem per entity, one Query per page of a
// dense rank list (keys in lib/data/keys.ts, news section). One function per port method, so a
// function's bundle holds only the ones its wiring names (docs/architecture.md, "Bundles");
// DynamoNewsReader gathers them for the bench and the tests.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { newsKeys as k, type Key } from '../../data/keys.ts';
import type { Article, NewsUser, Tag } from '../model.ts';
import type { NewsReader } from '../ports.ts';
import { strip, table } from './dynamo-shared.ts';

async function get<T>(key: Key): Promise<T | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: key }));
  return strip<T>(Item);
}

export const getArticle = (id: number) => get<Article>(k.article(id));
export const getUser = (id: number) => get<NewsUser>(k.user(id));
export const getTag = (id: number) => get<Tag>(k.tag(id));

export async function newsPage(start: number, size: number) {
  // From RANK#start up to the TOTAL item: a full page never reaches TOTAL (its items carry the
  // total); the last page or one past the end does.
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      Limit: size,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': k.newsList,
        ':from': k.rankSk(start),
        ':to': k.listTotal(k.newsList).SK,
      },
    }),
  );
  const ranks = Items.filter((i) => String(i.SK).startsWith(k.rankPrefix));
  return {
    ids: ranks.map((i) => i.articleId as number),
    total: (Items[0]?.total as number | undefined) ?? 0,
  };
}

export async function userArticles(userId: number, start: number, size: number) {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': k.userArticles(userId),
        ':from': k.rankSk(start),
        ':to': k.rankSk(start + size - 1),
      },
    }),
  );
  return Items.map((i) => i.articleId as number);
}

/** Every method, for the full news service (bench, tests); functions wire only what they call. */
export class DynamoNewsReader implements NewsReader {
  getArticle = getArticle;
  getUser = getUser;
  getTag = getTag;
  newsPage = newsPage;
  userArticles = userArticles;
}
