// Floor for functions that use DynamoDB only: the least a Lambda that reads one item can be.
// Built and loaded by `npm run bench` exactly like the functions (infra/bench/coldstart.ts).
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const dynamo = new DynamoDBClient({});

export const handler = async (event: { id: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
};
