// DELETE /v1/teams/{teamPath}/webhooks/{hookId}: a webhook (204) (HackMD DeleteTeamWebhook; the team's admin only).
import { noContent } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamHookPath } from '#lib/notes/webhooks/schemas.ts';
import { teamWebhookRemover } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamHookPath }, async ({ principal, path }) => {
  await teamWebhookRemover().delete({ userId: principal.userId, teamPath: path.teamPath }, path.hookId);
  return noContent();
});
