// PATCH /v1/webhooks/{hookId}: name, url or active (scope never changes) (HackMD UpdateWebhook).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { hookPath, webhookChanges } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { webhookUpdater } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation(
  { path: hookPath, body: { schema: webhookChanges } },
  async ({ principal, path, body }) => {
    return ok(presentWebhook(await webhookUpdater().update({ userId: principal.userId }, path.hookId, body)));
  },
);
