// GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries/export: the whole delivery log in the retention
// window, as NDJSON (HackMD ExportTeamWebhookDeliveries; the team's admin only).
import { ndjson } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamHookPath } from '#lib/notes/webhooks/schemas.ts';
import { presentDelivery } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookDeliveryLog } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamHookPath }, async ({ principal, path }) => {
  const all = await teamWebhookDeliveryLog().allDeliveries(
    { userId: principal.userId, teamPath: path.teamPath },
    path.hookId,
  );
  return ndjson(all.map(presentDelivery));
});
