// The SES v2 client, created on first use; only the code sender that mails codes imports this module.
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { failFast, reportUnavailable } from './fail-fast.ts';

let client: SESv2Client | undefined;

export const sesClient = (): SESv2Client =>
  (client ??= reportUnavailable(new SESv2Client(failFast('messaging')), 'SES'));
