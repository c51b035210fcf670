// POST /api/users/{userId}/verifications: start verifying a factor (a code is sent unless it is otp).
import { created, restOperation } from '#lib/http/rest.ts';
import { assertMayActFor } from '#lib/bank/access.ts';
import { idempotent, securityLog } from '#lib/bank/http.ts';
import type { PublicVerification } from '#lib/bank/mfa.ts';
import { startVerificationBody, userPath } from '#lib/bank/schemas.ts';
import { mfa } from '#lib/bank/service.ts';

const respond = (v: PublicVerification) => created(v);

export const handler = restOperation({ auth: true, path: userPath, body: { schema: startVerificationBody } }, async (req) => {
  await assertMayActFor(req.principal.userId, req.path.userId);
  return idempotent(req, respond, (complete) => mfa.startVerification(req.path.userId, req.body.device_id, securityLog(req), complete));
});
