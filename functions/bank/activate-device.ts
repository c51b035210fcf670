// POST /api/users/{userId}/devices/{deviceId}/activate: prove a pending factor (a code, a passkey registration).
import { ok } from '#lib/http/rest.ts';
import type { ActivationProof } from '#lib/bank/enrolment.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { securityLog, stepUpHeader } from '#lib/bank/http/glue.ts';
import { activateBody } from '#lib/bank/mfa-schemas.ts';
import { devicePath } from '#lib/bank/params.ts';
import { access, deviceActivator } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: devicePath, body: { schema: activateBody } }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  const proof = req.body as ActivationProof;
  return ok(
    await deviceActivator().activate(
      req.path.userId,
      req.path.deviceId,
      proof,
      securityLog(req),
      stepUpHeader(req),
    ),
  );
});
