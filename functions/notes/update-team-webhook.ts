// PATCH /v1/teams/{teamPath}/webhooks/{hookId}: name, url or active (scope never changes) (HackMD UpdateTeamWebhook; the team's admin only).
import { ok } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamHookPath, webhookChanges } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookUpdater } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation(
  { path: teamHookPath, body: { schema: webhookChanges } },
  async ({ principal, path, body }) => {
    return ok(
      presentWebhook(
        await teamWebhookUpdater().update(
          { userId: principal.userId, teamPath: path.teamPath },
          path.hookId,
          body,
        ),
      ),
    );
  },
);
