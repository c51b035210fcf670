// POST /api/users/{userId}/verifications/{verificationId}: check a code or an mfa_token.
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { idempotent, securityLog } from '#lib/bank/http/glue.ts';
import type { Proof } from '#lib/bank/mfa.ts';
import { verificationPath, verifyBody } from '#lib/bank/schemas.ts';
import { access, mfa } from '#lib/bank/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: verificationPath, body: { schema: verifyBody } }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  return idempotent(req, ok, (complete) =>
    mfa().verify(req.path.userId, req.path.verificationId, req.body as Proof, securityLog(req), complete));
});
