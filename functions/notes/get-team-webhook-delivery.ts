// GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries/{deliveryId}: one attempt of the delivery log (HackMD GetTeamWebhookDelivery; the team's admin only).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamDeliveryPath } from '#lib/notes/webhooks/schemas.ts';
import { presentDelivery } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookDeliveryLookup } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamDeliveryPath }, async ({ principal, path }) => {
  return ok(
    presentDelivery(
      await teamWebhookDeliveryLookup().delivery(
        { userId: principal.userId, teamPath: path.teamPath },
        path.hookId,
        path.deliveryId,
      ),
    ),
  );
});
