// DELETE /api/users/{userId}/devices/{deviceId}: delete a factor; needs an X-MFA-Verification step-up.
import { noContent, restOperation } from '#lib/http/rest.ts';
import { assertMayActFor } from '#lib/bank/access.ts';
import { securityLog, stepUpHeader } from '#lib/bank/http.ts';
import { devicePath } from '#lib/bank/schemas.ts';
import { mfa } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, path: devicePath }, async (req) => {
  await assertMayActFor(req.principal.userId, req.path.userId);
  await mfa.deleteDevice(req.path.userId, req.path.deviceId, stepUpHeader(req), securityLog(req));
  return noContent();
});
