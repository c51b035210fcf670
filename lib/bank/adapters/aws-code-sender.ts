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

/** sms and voice through SNS, email through SES: the kinds with an address and a delivery service. */
const delivered = ({ kind, address }: CodeMessage['device']) =>
  Boolean(address) && (kind === 'sms' || kind === 'voice' || kind === 'email');

export const awsCodeSender: CodeSender = {
  stored: (m) => (delivered(m.device) ? undefined : outboxEntry(m)),
  deliver: async (m) => {
    const { kind, address } = m.device;
    if (!delivered(m.device)) return;
    if (kind === 'sms' || kind === 'voice') {
      await snsClient().send(new PublishCommand({ PhoneNumber: address!, Message: text(m) }));
      return;
    }
    await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: config.emailFrom,
        Destination: { ToAddresses: [address!] },
        Content: {
          Simple: { Subject: { Data: 'Your verification code' }, Body: { Text: { Data: text(m) } } },
        },
      }),
    );
  },
};
