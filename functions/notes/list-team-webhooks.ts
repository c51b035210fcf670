// GET /v1/teams/{teamPath}/webhooks: the workspace's webhooks (HackMD ListTeamWebhooks; the team's admin only).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookLister } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamPathOnly }, async ({ principal, path }) => {
  const hooks = await teamWebhookLister().list({ userId: principal.userId, teamPath: path.teamPath });
  return ok(hooks.map(presentWebhook));
});
