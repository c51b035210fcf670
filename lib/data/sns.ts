// The SNS client, created on first use; only the code sender that texts codes imports this module.
import { SNSClient } from '@aws-sdk/client-sns';
import { failFast, reportUnavailable } from './fail-fast.ts';

let client: SNSClient | undefined;

export const snsClient = (): SNSClient =>
  (client ??= reportUnavailable(new SNSClient(failFast('messaging')), 'SNS'));
