// POST /api/users/{userId}/verifications/{verificationId}: check a code or an mfa_token.
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { idempotent, securityLog } from '#lib/bank/http/glue.ts';
import type { Proof } from '#lib/bank/mfa.ts';
import { verifyBody } from '#lib/bank/mfa-schemas.ts';
import { verificationPath } from '#lib/bank/params.ts';
import { access, verifier } from '#lib/bank/wiring.ts';

export const handler = bankOperation(
  { path: verificationPath, body: { schema: verifyBody } },
  async (req) => {
    await access().assertMayActFor(req.principal.userId, req.path.userId);
    return idempotent(req, ok, (complete) =>
      verifier().verify(
        req.path.userId,
        req.path.verificationId,
        req.body as Proof,
        securityLog(req),
        complete,
      ),
    );
  },
);
