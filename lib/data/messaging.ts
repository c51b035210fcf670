// SNS and SES clients, created once per container. Kept apart from clients.ts so that only the
// functions that send verification codes bundle these SDKs.
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';

export const sns = new SNSClient({});
export const ses = new SESv2Client({});
