// POST /v1/webhooks: a webhook (201, with its signing secret, shown once) (HackMD CreateWebhook).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { webhookCreation } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { webhookCreator } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ body: { schema: webhookCreation } }, async ({ principal, body }) => {
  const { hook, secret } = await webhookCreator().create({ userId: principal.userId }, body);
  return created({ ...presentWebhook(hook), secret });
});
