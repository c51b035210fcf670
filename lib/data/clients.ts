// SDK clients, created once per container. Endpoints and region come only from the standard SDK
// environment (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3): no "if local" here.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { countDynamoRequests } from './metering.ts';

export const dynamo = new DynamoDBClient({});
countDynamoRequests(dynamo);

export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

// Path-style addressing works with S3 and with every S3 emulator.
export const s3 = new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
