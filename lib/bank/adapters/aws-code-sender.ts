// The AWS sender: sms by SendTextMessage and voice by SendVoiceMessage (the code read aloud) of AWS
// End User Messaging SMS and Voice v2, from the origination identity SMS_VOICE_ORIGINATION_IDENTITY,
// with a time to live no longer than the code's; email through SES v2 SendEmail. Only the
// functions that send codes (starting a verification, enrolling a factor) bundle this module.
import { SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from '../../config.ts';
import { sesClient } from '../../data/ses.ts';
import { smsVoiceClient } from '../../data/sms-voice.ts';
import type { CodeMessage, CodeSender } from '../ports.ts';
import { outboxEntry } from './outbox-sender.ts';

const text = (m: CodeMessage) => `Your verification code is ${m.code}. It expires in 10 minutes.`;
/** Read aloud: digits one by one, twice. */
const spoken = (m: CodeMessage) => {
  const digits = m.code.split('').join(', ');
  return `Your verification code is ${digits}. Again: ${digits}.`;
};

/** sms, voice and email: the kinds with an address and a delivery service. */
const delivered = ({ kind, address }: CodeMessage['device']) =>
  Boolean(address) && (kind === 'sms' || kind === 'voice' || kind === 'email');

/** Seconds the message may wait for delivery: never past the code's expiry (the API's minimum is 5). */
export const timeToLive = (m: CodeMessage) => Math.max(5, Math.min(m.expires_at - m.sent, 600));

export const awsCodeSender: CodeSender = {
  stored: (m) => (delivered(m.device) ? undefined : outboxEntry(m)),
  deliver: async (m) => {
    const { kind, address } = m.device;
    if (!delivered(m.device)) return;
    const from = { OriginationIdentity: config.smsVoiceOriginationIdentity, TimeToLive: timeToLive(m) };
    if (kind === 'sms') {
      await smsVoiceClient().send(
        new SendTextMessageCommand({
          DestinationPhoneNumber: address!,
          MessageBody: text(m),
          MessageType: 'TRANSACTIONAL',
          ...from,
        }),
      );
      return;
    }
    if (kind === 'voice') {
      await smsVoiceClient().send(
        new SendVoiceMessageCommand({
          DestinationPhoneNumber: address!,
          MessageBody: spoken(m),
          MessageBodyTextType: 'TEXT',
          ...from,
        }),
      );
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
