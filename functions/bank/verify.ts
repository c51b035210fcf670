// POST /api/users/{userId}/verifications/{verificationId}: check a code or an mfa_token.
import { ok, restOperation } from '#lib/http/rest.ts';
import { assertMayActFor } from '#lib/bank/access.ts';
import { idempotent, securityLog } from '#lib/bank/http.ts';
import type { Proof } from '#lib/bank/mfa.ts';
import { verificationPath, verifyBody } from '#lib/bank/schemas.ts';
import { mfa } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, path: verificationPath, body: { schema: verifyBody } }, async (req) => {
  await assertMayActFor(req.principal.userId, req.path.userId);
  return idempotent(req, ok, (complete) =>
    mfa.verify(req.path.userId, req.path.verificationId, req.body as Proof, securityLog(req), complete));
});
