// POST /v1/teams/{teamPath}/webhooks/{hookId}/ping: a test delivery (204; its result is in the deliveries) (HackMD PingTeamWebhook; the team's admin only).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamHookPath } from '#lib/notes/webhooks/schemas.ts';
import { teamWebhookPinger } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamHookPath }, async ({ principal, path }) => {
  await teamWebhookPinger().ping({ userId: principal.userId, teamPath: path.teamPath }, path.hookId);
  return noContent();
});
