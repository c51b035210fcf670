// The SQS client, created on first use; only the webhook event router and delivery import this module.
import { SQSClient } from '@aws-sdk/client-sqs';
import { failFast, reportUnavailable } from './fail-fast.ts';

let client: SQSClient | undefined;

export const sqsClient = (): SQSClient =>
  (client ??= reportUnavailable(new SQSClient(failFast('messaging')), 'SQS'));
