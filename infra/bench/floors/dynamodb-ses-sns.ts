// Floor for functions that use DynamoDB, SES and SNS (verification codes): read one item, then
// send one SMS and one e-mail. Built and loaded by `npm run bench` exactly like the functions.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';

const dynamo = new DynamoDBClient({});
const sns = new SNSClient({});
const ses = new SESv2Client({});

export const handler = async (event: { id: string; phone: string; email: string }) => {
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (!Item) return { statusCode: 404, body: 'null' };
  await sns.send(new PublishCommand({ PhoneNumber: event.phone, Message: 'code' }));
  const content = { Simple: { Subject: { Data: 'code' }, Body: { Text: { Data: 'code' } } } };
  await ses.send(new SendEmailCommand({ Destination: { ToAddresses: [event.email] }, Content: content }));
  return { statusCode: 200, body: '{}' };
};
