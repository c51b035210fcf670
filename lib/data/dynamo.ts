// The DynamoDB client, created on first use (so a process can set its environment first, and a
// function that never reads the table never builds it). Endpoint and region come only from the
// standard SDK environment (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB): no "if local" here.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { countDynamoRequests } from './metering.ts';

let client: DynamoDBDocumentClient | undefined;

/** The document client of this container. */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const dynamo = new DynamoDBClient({});
    countDynamoRequests(dynamo);
    client = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}
