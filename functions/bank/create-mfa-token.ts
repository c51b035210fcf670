// POST /api/users/{userId}/mfa_token: issue a recovery mfa_token (admins only; shown once).
import { created, restOperation } from '#lib/http/rest.ts';
import { assertAdmin } from '#lib/bank/access.ts';
import { idempotent, securityLog } from '#lib/bank/http.ts';
import { mfaTokenBody, userPath } from '#lib/bank/schemas.ts';
import { mfa } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, path: userPath, body: { schema: mfaTokenBody, optional: true } }, async (req) => {
  await assertAdmin(req.principal.userId);
  return idempotent(req, created, (complete) =>
    mfa.issueMfaToken(req.path.userId, req.body ?? {}, securityLog(req), complete), { seal: true });
});
