// GET /v1/webhooks/{hookId}/deliveries/export: the whole delivery log in the retention window, as NDJSON (HackMD ExportWebhookDeliveries).
import { ndjson } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { hookPath } from '#lib/notes/webhooks/schemas.ts';
import { presentDelivery } from '#lib/notes/webhooks/webhooks.ts';
import { webhookDeliveryLog } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: hookPath }, async ({ principal, path }) => {
  const all = await webhookDeliveryLog().allDeliveries({ userId: principal.userId }, path.hookId);
  return ndjson(all.map(presentDelivery));
});
