// Floor for functions that use DynamoDB and SNS (a push device's activation: its platform endpoint):
// read one item, then create one endpoint. Built like the functions.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreatePlatformEndpointCommand, SNSClient } from '@aws-sdk/client-sns';

const dynamo = new DynamoDBClient({});
const sns = new SNSClient({});

export const handler = async (event: { id: string; app: string; token: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (!Item) return { statusCode: 404, body: 'null' };
  await sns.send(
    new CreatePlatformEndpointCommand({ PlatformApplicationArn: event.app, Token: event.token }),
  );
  return { statusCode: 200, body: '{}' };
};
