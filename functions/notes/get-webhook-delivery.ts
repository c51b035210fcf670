// GET /v1/webhooks/{hookId}/deliveries/{deliveryId}: one attempt of the delivery log (HackMD GetWebhookDelivery).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { deliveryPath } from '#lib/notes/webhooks/schemas.ts';
import { presentDelivery } from '#lib/notes/webhooks/webhooks.ts';
import { webhookDeliveryLookup } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: deliveryPath }, async ({ principal, path }) => {
  return ok(
    presentDelivery(
      await webhookDeliveryLookup().delivery({ userId: principal.userId }, path.hookId, path.deliveryId),
    ),
  );
});
