// GET /v1/webhooks/{hookId}: one webhook (HackMD GetWebhook).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { hookPath } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { webhookLookup } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: hookPath }, async ({ principal, path }) => {
  return ok(presentWebhook(await webhookLookup().get({ userId: principal.userId }, path.hookId)));
});
