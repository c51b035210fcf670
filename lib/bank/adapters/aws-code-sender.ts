// The AWS sender: sms and voice through SNS Publish (SNS has no voice calls: voice codes arrive as
// SMS), email through SES v2 SendEmail; other kinds go to the outbox. Only the function that sends
// codes (StartVerification) bundles this module and the two clients.
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand } from '@aws-sdk/client-sns';
import { config } from '../../config.ts';
import { sesClient } from '../../data/ses.ts';
import { snsClient } from '../../data/sns.ts';
import type { CodeMessage, CodeSender } from '../ports.ts';
import { outboxEntry } from './outbox-sender.ts';

const text = (m: CodeMessage) => `Your verification code is ${m.code}. It expires in 10 minutes.`;

export const awsCodeSender: CodeSender = {
  send: async (m) => {
    const { kind, address } = m.device;
    if ((kind === 'sms' || kind === 'voice') && address) {
      await snsClient().send(new PublishCommand({ PhoneNumber: address, Message: text(m) }));
      return undefined;
    }
    if (kind === 'email' && address) {
      await sesClient().send(new SendEmailCommand({
        FromEmailAddress: config.emailFrom,
        Destination: { ToAddresses: [address] },
        Content: { Simple: { Subject: { Data: 'Your verification code' }, Body: { Text: { Data: text(m) } } } },
      }));
      return undefined;
    }
    return outboxEntry(m);
  },
};
