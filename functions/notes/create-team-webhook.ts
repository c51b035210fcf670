// POST /v1/teams/{teamPath}/webhooks: a webhook (201, with its signing secret, shown once) (HackMD CreateTeamWebhook; the team's admin only).
import { created } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { teamPathOnly } from '#lib/notes/kernel/params.ts';
import { webhookCreation } from '#lib/notes/webhooks/schemas.ts';
import { presentWebhook } from '#lib/notes/webhooks/webhooks.ts';
import { teamWebhookCreator } from '#lib/notes/webhooks/wiring.ts';

export const handler = notesOperation(
  { path: teamPathOnly, body: { schema: webhookCreation } },
  async ({ principal, path, body }) => {
    const { hook, secret } = await teamWebhookCreator().create(
      { userId: principal.userId, teamPath: path.teamPath },
      body,
    );
    return created({ ...presentWebhook(hook), secret });
  },
);
