// GET /api/users/{userId}/devices: the user's enrolled factors (never their secrets).
import { ok, restOperation } from '#lib/http/rest.ts';
import { assertMayActFor } from '#lib/bank/access.ts';
import { userPath } from '#lib/bank/schemas.ts';
import { mfa } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, path: userPath }, async (req) => {
  await assertMayActFor(req.principal.userId, req.path.userId);
  return ok(await mfa.listDevices(req.path.userId));
});
