// The DynamoDB client, created on first use (so a process can set its environment first, and a
// function that never reads the table never builds it). Endpoint and region come only from the
// standard SDK environment (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB): no "if local" here.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { failFast, reportUnavailable } from './fail-fast.ts';
import { INDEXES, type IndexId, LEGACY_INDEXES } from './keys.ts';
import { countDynamoRequests } from './metering.ts';

let client: DynamoDBDocumentClient | undefined;

/** The document client of this container. */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    // Timeouts and bounded retries; unavailability becomes Unavailable (lib/data/fail-fast.ts).
    const dynamo = reportUnavailable(new DynamoDBClient(failFast('dynamodb')), 'DynamoDB');
    countDynamoRequests(dynamo);
    // convertClassInstanceToMap: a map from JSON.parse with a key named `constructor` is not a
    // plain object to the marshaller's eyes; it is stored as the map it is.
    client = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
    });
  }
  return client;
}

/** The name of an index to query: the first layout's while a deployed table is upgraded (lib/data/keys.ts). */
export const indexName = (id: IndexId): string =>
  config.legacyIndexes ? LEGACY_INDEXES[id] : INDEXES[id].name;

/** Every page of a Query (each page one request), in key order. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
