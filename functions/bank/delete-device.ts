// DELETE /api/users/{userId}/devices/{deviceId}: delete a factor; needs an X-MFA-Verification step-up.
import { noContent } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { securityLog, stepUpHeader } from '#lib/bank/http/glue.ts';
import { devicePath } from '#lib/bank/params.ts';
import { access, deviceRemover } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: devicePath }, async (req) => {
  await access().assertMayActFor(req.principal.userId, req.path.userId);
  await deviceRemover().deleteDevice(req.path.userId, req.path.deviceId, stepUpHeader(req), securityLog(req));
  return noContent();
});
