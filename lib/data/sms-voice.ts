// The AWS End User Messaging SMS and Voice v2 client, created on first use; only the code sender
// (sms and voice codes) imports this module. AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2 points it at a
// stand-in (the SDK reads the standard endpoint variables itself).
import { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { failFast, reportUnavailable } from './fail-fast.ts';

let client: PinpointSMSVoiceV2Client | undefined;

export const smsVoiceClient = (): PinpointSMSVoiceV2Client =>
  (client ??= reportUnavailable(new PinpointSMSVoiceV2Client(failFast('messaging')), 'End User Messaging'));
