// Floor for functions that use DynamoDB and the WebSocket API's management API, no S3 (live
// editing's $disconnect: the note's other connections told a cursor is gone): read one item, send to
// one connection. Built and loaded by `npm run bench` exactly like the functions (infra/bench/coldstart.ts).
import {
  ApiGatewayManagementApiClient,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const dynamo = new DynamoDBClient({});
const connections = new ApiGatewayManagementApiClient({ endpoint: process.env.NOTES_LIVE_CONNECTIONS_URL });

export const handler = async (event: { id: string; body: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (!Item) return { statusCode: 404, body: 'null' };
  await connections.send(
    new PostToConnectionCommand({ ConnectionId: event.id, Data: Buffer.from(event.body) }),
  );
  return { statusCode: 200, body: JSON.stringify(Item) };
};
