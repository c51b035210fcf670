// Floor for functions that use DynamoDB, S3 and the WebSocket API's management API (live editing):
// read one item, write one object, send to one connection.
// Built and loaded by `npm run bench` exactly like the functions (infra/bench/coldstart.ts).
import {
  ApiGatewayManagementApiClient,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const dynamo = new DynamoDBClient({});
const s3 = new S3Client({});
const connections = new ApiGatewayManagementApiClient({ endpoint: process.env.NOTES_LIVE_CONNECTIONS_URL });

export const handler = async (event: { id: string; body: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (!Item) return { statusCode: 404, body: 'null' };
  await s3.send(new PutObjectCommand({ Bucket: process.env.BUCKET_NAME, Key: event.id, Body: event.body }));
  await connections.send(
    new PostToConnectionCommand({ ConnectionId: event.id, Data: Buffer.from(event.body) }),
  );
  return { statusCode: 200, body: JSON.stringify(Item) };
};
