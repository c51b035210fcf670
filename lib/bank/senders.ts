// How sms/voice/email (and push/device) codes leave the server, chosen by config.codeSender:
//   outbox  the code is stored in the table with the verification (same transaction) for the admin
//           CLI (`npm run admin -- outbox --user ID`): the local stand-in for phones and mailboxes.
//   aws     sms and voice through SNS Publish (SNS has no voice calls: voice codes arrive as SMS),
//           email through SES v2 SendEmail.
// push and device factors have no delivery service in this stack: their codes always go to the
// outbox, the stand-in for a push channel to the registered device.
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand } from '@aws-sdk/client-sns';
import { ses, sns } from '../data/messaging.ts';
import { config } from '../config.ts';
import type { Device, OutboxEntry } from './model.ts';

export interface CodeMessage { device: Device; verificationId: string; code: string; sent: number; expires_at: number }

export interface CodeSender {
  /** Delivers the code; returns an outbox entry to store with the verification, or undefined if delivered. */
  send(message: CodeMessage): Promise<OutboxEntry | undefined>;
}

const outboxEntry = (m: CodeMessage): OutboxEntry => ({
  userId: m.device.userId, verificationId: m.verificationId, deviceId: m.device.id, channel: m.device.kind,
  to: m.device.address, code: m.code, sent: m.sent, expires_at: m.expires_at,
});

export const outboxSender: CodeSender = { send: async (m) => outboxEntry(m) };

const text = (m: CodeMessage) => `Your verification code is ${m.code}. It expires in 10 minutes.`;

export const awsSender: CodeSender = {
  send: async (m) => {
    const { kind, address } = m.device;
    if ((kind === 'sms' || kind === 'voice') && address) {
      await sns.send(new PublishCommand({ PhoneNumber: address, Message: text(m) }));
      return undefined;
    }
    if (kind === 'email' && address) {
      await ses.send(new SendEmailCommand({
        FromEmailAddress: config.emailFrom,
        Destination: { ToAddresses: [address] },
        Content: { Simple: { Subject: { Data: 'Your verification code' }, Body: { Text: { Data: text(m) } } } },
      }));
      return undefined;
    }
    return outboxEntry(m);
  },
};

export const codeSender = (): CodeSender => (config.codeSender === 'aws' ? awsSender : outboxSender);
