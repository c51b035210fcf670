// GET /v1/me: the current user's profile and teams (GetCurrentUser in the Notes interface document).
import { currentUser } from '#lib/identity/wiring.ts';
import { ok, unauthorized } from '#lib/http/rest.ts';
import { notesOperation } from '#lib/notes/kernel/http/operation.ts';
import { presentUser } from '#lib/notes/kernel/present.ts';

export const handler = notesOperation({}, async ({ principal }) => {
  const me = await currentUser().getUserWithTeams(principal.userId);
  if (!me) throw unauthorized('The token belongs to a user that no longer exists');
  return ok(presentUser(me.user, me.teams));
});
