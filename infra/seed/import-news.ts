// import-news into the table (admin CLI, seed, bench): the News import domain with its DynamoDB
// store. Not in lib/news/wiring.ts, which every News function bundles: esbuild bundles even a
// dynamic import(), so the import's schemas and the store (with its BatchWrite) were in every News
// bundle, about 110 KiB.
import { type ImportOptions, importNews } from '../../lib/news/import.ts';
import { DynamoImportStore } from '../../lib/news/adapters/dynamo-import.ts';

export const importIntoTable = (input: unknown, opts?: ImportOptions) =>
  importNews(input, new DynamoImportStore(), opts);
