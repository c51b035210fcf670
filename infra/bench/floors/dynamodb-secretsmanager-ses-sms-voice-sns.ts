// Floor for functions that use DynamoDB, a deployment secret, SES, End User Messaging SMS and Voice
// and SNS (starting a verification: codes by SMS, voice or e-mail, a push by SNS): read the secret at
// init, read one item, then send one SMS, one voice message, one e-mail and one push. Built like the functions.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  SendVoiceMessageCommand,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';

const dynamo = new DynamoDBClient({});
const smsVoice = new PinpointSMSVoiceV2Client({});
const sns = new SNSClient({});
const ses = new SESv2Client({});
// Like lib/data/secrets.ts: the read starts at init, and only when the secret's ARN is configured.
const arn = process.env.SECRET_ARN;
const secret = arn
  ? new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }))
  : Promise.reject(new Error('missing SECRET_ARN'));
secret.catch(() => undefined);

export const handler = async (event: { id: string; phone: string; email: string; endpoint: string }) => {
  const { SecretString } = await secret;
  const key = { pk: { S: event.id }, sk: { S: event.id } };
  const { Item } = await dynamo.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
  if (!Item || !SecretString) return { statusCode: 404, body: 'null' };
  await smsVoice.send(
    new SendTextMessageCommand({ DestinationPhoneNumber: event.phone, MessageBody: 'code' }),
  );
  await smsVoice.send(
    new SendVoiceMessageCommand({
      DestinationPhoneNumber: event.phone,
      OriginationIdentity: 'id',
      MessageBody: 'code',
    }),
  );
  await sns.send(new PublishCommand({ TargetArn: event.endpoint, Message: 'push' }));
  const content = { Simple: { Subject: { Data: 'code' }, Body: { Text: { Data: 'code' } } } };
  await ses.send(new SendEmailCommand({ Destination: { ToAddresses: [event.email] }, Content: content }));
  return { statusCode: 200, body: '{}' };
};
