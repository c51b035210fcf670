// POST /api/users/{userId}/devices: enrol a factor, pending until activated (its activation data shown once).
import { created } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { securityLog, stepUpHeader } from '#lib/bank/http/glue.ts';
import { enrollBody } from '#lib/bank/mfa-schemas.ts';
import { userPath } from '#lib/bank/params.ts';
import { access, deviceEnroller } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: userPath, body: { schema: enrollBody } }, async (req) => {
  const { userId } = req.path;
  await access().assertMayActFor(req.principal.userId, userId);
  const factor = await deviceEnroller().enroll(userId, req.body, stepUpHeader(req), securityLog(req));
  return created(factor, { Location: `/api/users/${userId}/devices/${factor.id}` });
});
