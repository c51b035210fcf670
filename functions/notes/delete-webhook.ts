// DELETE /v1/webhooks/{hookId}: a webhook (204) (HackMD DeleteWebhook).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { hookPath } from '#lib/notes/webhooks/schemas.ts';
import { webhookRemover } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: hookPath }, async ({ principal, path }) => {
  await webhookRemover().delete({ userId: principal.userId }, path.hookId);
  return noContent();
});
