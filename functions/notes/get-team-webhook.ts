// GET /v1/teams/{teamPath}/webhooks/{hookId}: one webhook (HackMD GetTeamWebhook; the team's admin only).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamHookPath } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookLookup } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation({ path: teamHookPath }, async ({ principal, path }) => {
  return ok(
    presentWebhook(
      await teamWebhookLookup().get({ userId: principal.userId, teamPath: path.teamPath }, path.hookId),
    ),
  );
});
