// GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries: one page of the delivery log, newest first (HackMD ListTeamWebhookDeliveries; the team's admin only).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { deliveriesQuery, pageOf, teamHookPath } from '#lib/notes/webhooks/schemas.ts';
import { presentDeliveryPage } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookDeliveryLog } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation(
  { path: teamHookPath, query: deliveriesQuery },
  async ({ principal, path, query }) => {
    const { page, limit } = pageOf(query);
    const found = await teamWebhookDeliveryLog().deliveries(
      { userId: principal.userId, teamPath: path.teamPath },
      path.hookId,
      page,
      limit,
    );
    return ok(presentDeliveryPage(found, { page, limit }));
  },
);
