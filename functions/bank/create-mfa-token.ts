// POST /api/users/{userId}/mfa_token: issue a recovery mfa_token (admins only; shown once).
import { created } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { idempotent, securityLog } from '#lib/bank/http/glue.ts';
import { mfaTokenBody } from '#lib/bank/mfa-schemas.ts';
import { userPath } from '#lib/bank/params.ts';
import { access, mfaTokenIssuer, sealingKey } from '#lib/bank/wiring.ts';

export const handler = bankOperation(
  { path: userPath, body: { schema: mfaTokenBody, optional: true } },
  async (req) => {
    await access().assertAdmin(req.principal.userId);
    return idempotent(
      req,
      created,
      (complete) =>
        mfaTokenIssuer().issueMfaToken(req.path.userId, req.body ?? {}, securityLog(req), complete),
      { seal: sealingKey },
    );
  },
);
