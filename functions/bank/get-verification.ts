// GET /api/users/{userId}/verifications/{verificationId}: a verification's status (a caller polls a push).
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { verificationPath } from '#lib/bank/params.ts';
import { access, verificationReader } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: verificationPath }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  return ok(await verificationReader().status(req.path.userId, req.path.verificationId));
});
