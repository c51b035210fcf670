// Floor for functions that use DynamoDB and send to an SQS queue (the webhook event router).
// Built and loaded by `npm run bench` like the functions.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

const dynamo = new DynamoDBClient({});
const sqs = new SQSClient({});

export const handler = async (event: { id: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (Item)
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL, MessageBody: event.id }));
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
};
