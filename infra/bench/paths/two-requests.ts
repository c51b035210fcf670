// The DynamoDB floor with a second request: a GetItem, then a Query, through the raw client.
// What a second request costs a cold start (`npm run bench -- --data-path`).
import { DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';

const dynamo = new DynamoDBClient({});

export const handler = async (event: { id: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  const { Count } = await dynamo.send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: event.id } },
    }),
  );
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Count ?? 0) };
};
