// Floor for functions that use DynamoDB, read a deployment secret and send to an SQS queue (the
// webhook delivery). Built and loaded by `npm run bench` like the functions.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

const dynamo = new DynamoDBClient({});
const sqs = new SQSClient({});
// Like lib/data/secrets.ts: the read starts at init, and only when the secret's ARN is configured.
const arn = process.env.SECRET_ARN;
const secret = arn
  ? new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }))
  : Promise.reject(new Error('missing SECRET_ARN'));
secret.catch(() => undefined);

export const handler = async (event: { id: string }) => {
  const { SecretString } = await secret;
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (Item)
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL, MessageBody: event.id }));
  return { statusCode: Item && SecretString ? 200 : 404, body: JSON.stringify(Item ?? null) };
};
