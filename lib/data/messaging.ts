// SNS and SES clients, created once per container. Kept apart from clients.ts so that only the
// functions that send verification codes bundle these SDKs. Timeouts: lib/data/fail-fast.ts.
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { failFast, reportUnavailable } from './fail-fast.ts';

export const sns = reportUnavailable(new SNSClient(failFast('messaging')), 'SNS');
export const ses = reportUnavailable(new SESv2Client(failFast('messaging')), 'SES');
