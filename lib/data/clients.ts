// SDK clients, created once per container. Endpoints and region come only from the standard SDK
// environment (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3): no "if local" here.
// Timeouts and retries: lib/data/fail-fast.ts.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { failFast, reportUnavailable } from './fail-fast.ts';
import { countDynamoRequests } from './metering.ts';

export const dynamo = reportUnavailable(new DynamoDBClient(failFast('dynamodb')), 'DynamoDB');
countDynamoRequests(dynamo);

// convertClassInstanceToMap: a map from JSON.parse with a key named `constructor` is not a plain
// object to the marshaller's eyes; it is stored as the map it is.
export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
});

// Path-style addressing works with S3 and with every S3 emulator.
export const s3 = reportUnavailable(
  new S3Client({ ...failFast('s3'), forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' }), 'S3');
