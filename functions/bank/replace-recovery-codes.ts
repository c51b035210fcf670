// POST /api/users/{userId}/recovery_codes: ten new recovery codes (step-up); the old ones stop working.
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { securityLog, stepUpHeader } from '#lib/bank/http/glue.ts';
import { userPath } from '#lib/bank/params.ts';
import { access, recoveryCodeReplacer } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: userPath }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  return ok(
    await recoveryCodeReplacer().replaceRecoveryCodes(req.path.userId, stepUpHeader(req), securityLog(req)),
  );
});
