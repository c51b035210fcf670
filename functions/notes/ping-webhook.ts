// POST /v1/webhooks/{hookId}/ping: a test delivery (204; its result is in the deliveries) (HackMD PingWebhook).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { hookPath } from '#lib/notes/webhooks/schemas.ts';
import { webhookPinger } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: hookPath }, async ({ principal, path }) => {
  await webhookPinger().ping({ userId: principal.userId }, path.hookId);
  return noContent();
});
