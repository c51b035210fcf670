// POST /api/users/{userId}/verifications: start verifying a factor (a code is sent unless it is otp).
import { created } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { idempotent, securityLog } from '#lib/bank/http/glue.ts';
import type { PublicVerification } from '#lib/bank/mfa.ts';
import { startVerificationBody } from '#lib/bank/mfa-schemas.ts';
import { userPath } from '#lib/bank/params.ts';
import { access, sealingKey, verificationStarter } from '#lib/bank/wiring.ts';

const respond = (v: PublicVerification) => created(v);

export const handler = bankOperation(
  { path: userPath, body: { schema: startVerificationBody } },
  async (req) => {
    await access().assertMayActFor(req.principal.userId, req.path.userId);
    // The answer may hold what the caller must prove (a push's number, a passkey's challenge): the
    // response stored for the Idempotency-Key is sealed, as an mfa_token's is.
    return idempotent(
      req,
      respond,
      (complete) =>
        verificationStarter().startVerification(
          req.path.userId,
          req.body.device_id,
          complete,
          securityLog(req),
        ),
      { seal: sealingKey },
    );
  },
);
