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
import { encryptSecret } from './crypto.ts';
import type { Device, OutboxEntry } from './model.ts';

export interface CodeMessage { device: Device; verificationId: string; code: string; sent: number; expires_at: number }

export interface CodeSender {
  /** The outbox entry to store with the verification (in its transaction), or undefined if delivered. */
  stored(message: CodeMessage): OutboxEntry | undefined;
  /** Delivers the code, once the verification is stored (so a refused start sends nothing). */
  deliver(message: CodeMessage): Promise<void>;
}

/** The code is stored encrypted (lib/bank/crypto.ts); MfaService.outbox decrypts it for the admin CLI. */
const outboxEntry = (m: CodeMessage): OutboxEntry => ({
  userId: m.device.userId, verificationId: m.verificationId, deviceId: m.device.id, channel: m.device.kind,
  to: m.device.address, code: encryptSecret(m.code), sent: m.sent, expires_at: m.expires_at,
});

export const outboxSender: CodeSender = { stored: outboxEntry, deliver: async () => {} };

const text = (m: CodeMessage) => `Your verification code is ${m.code}. It expires in 10 minutes.`;
/** sms and voice through SNS, email through SES: the kinds with an address and a delivery service. */
const delivered = ({ kind, address }: Device) => Boolean(address) && (kind === 'sms' || kind === 'voice' || kind === 'email');

export const awsSender: CodeSender = {
  stored: (m) => (delivered(m.device) ? undefined : outboxEntry(m)),
  deliver: async (m) => {
    const { kind, address } = m.device;
    if (!delivered(m.device)) return;
    if (kind === 'sms' || kind === 'voice') {
      await sns.send(new PublishCommand({ PhoneNumber: address!, Message: text(m) }));
      return;
    }
    await ses.send(new SendEmailCommand({
      FromEmailAddress: config.emailFrom,
      Destination: { ToAddresses: [address!] },
      Content: { Simple: { Subject: { Data: 'Your verification code' }, Body: { Text: { Data: text(m) } } } },
    }));
  },
};

export const codeSender = (): CodeSender => (config.codeSender === 'aws' ? awsSender : outboxSender);
