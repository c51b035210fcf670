// GET /v1/webhooks: the workspace's webhooks (HackMD ListWebhooks).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { webhookLister } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const hooks = await webhookLister().list({ userId: principal.userId });
  return ok(hooks.map(presentWebhook));
});
