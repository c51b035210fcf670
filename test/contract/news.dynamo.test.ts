// Needs DynamoDB Local (started by `npm test`'s global setup). The news list is one per table, and
// test/news/api.test.ts counts it: this file works on a table of its own.
import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { ensureTable } from '../../infra/local/services.ts';
import { DynamoImportStore } from '../../lib/news/adapters/dynamo-import.ts';
import { DynamoNewsReader } from '../../lib/news/adapters/dynamo-reader.ts';
import { DynamoStatusStore } from '../../lib/news/adapters/dynamo-status.ts';
import { newsContract } from './news.ts';

beforeAll(async () => {
  const table = `contract-news-${randomUUID().slice(0, 8)}`;
  await ensureTable(process.env.LOCAL_DYNAMODB_ENDPOINT!, table);
  process.env.TABLE_NAME = table;
});

newsContract(
  'DynamoDB',
  () => ({
    reader: new DynamoNewsReader(),
    imports: new DynamoImportStore(),
    status: new DynamoStatusStore(),
  }),
  0,
);
