// GET /api/users/{userId}/devices: the user's enrolled factors (never their secrets).
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { userPath } from '#lib/bank/params.ts';
import { access, deviceLister } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: userPath }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  return ok(await deviceLister().listDevices(req.path.userId));
});
