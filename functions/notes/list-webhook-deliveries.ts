// GET /v1/webhooks/{hookId}/deliveries: one page of the delivery log, newest first (HackMD ListWebhookDeliveries).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { deliveriesQuery, hookPath, pageOf } from '#lib/notes/webhooks/schemas.ts';
import { presentDeliveryPage } from '#lib/notes/webhooks/webhooks.ts';
import { webhookDeliveryLog } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation(
  { path: hookPath, query: deliveriesQuery },
  async ({ principal, path, query }) => {
    const { page, limit } = pageOf(query);
    const found = await webhookDeliveryLog().deliveries(
      { userId: principal.userId },
      path.hookId,
      page,
      limit,
    );
    return ok(presentDeliveryPage(found, { page, limit }));
  },
);
