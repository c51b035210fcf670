// Signatures of the Standard Webhooks scheme (standardwebhooks.com) by its reference library:
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the secret given at creation (whsec_...).
import { Webhook } from 'standardwebhooks';

export const signDelivery = (secret: string, eventId: string, at: Date, body: string): string =>
  new Webhook(secret).sign(eventId, at, body);
