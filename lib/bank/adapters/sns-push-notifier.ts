// SNS mobile push (lib/bank/ports.ts PushNotifier): a platform endpoint per device token, made when
// the device app activates, and a notification naming the challenge when a push verification
// starts. Without a platform application (PUSH_PLATFORM_APPLICATION_ARN empty) nothing is sent
// and the device app polls GET /api/push/challenges.
import { CreatePlatformEndpointCommand, PublishCommand } from '@aws-sdk/client-sns';
import { config } from '../../config.ts';
import { snsClient } from '../../data/sns.ts';
import type { PushNotifier } from '../ports.ts';

/** At activation: the device token's platform endpoint (the push activation function only). */
export const snsRegister: PushNotifier['register'] = async (pushToken, deviceId) => {
  const app = config.pushPlatformApplicationArn;
  if (!app) return undefined;
  const { EndpointArn } = await snsClient().send(
    new CreatePlatformEndpointCommand({
      PlatformApplicationArn: app,
      Token: pushToken,
      CustomUserData: deviceId,
    }),
  );
  return EndpointArn;
};

/** At a push verification's start: the notification naming the challenge. */
export const snsNotify: PushNotifier['notify'] = async (endpoint, verificationId) => {
  if (!config.pushPlatformApplicationArn) return;
  const data = { type: 'mfa_push', verification_id: verificationId };
  await snsClient().send(
    new PublishCommand({
      TargetArn: endpoint,
      MessageStructure: 'json',
      Message: JSON.stringify({
        default: 'Approve a sign-in',
        GCM: JSON.stringify({ data }),
        APNS: JSON.stringify({ aps: { alert: 'Approve a sign-in', 'content-available': 1 }, ...data }),
      }),
    }),
  );
};
