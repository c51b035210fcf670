// POST /api/push/challenges/{verificationId}: the device's signed decision with the number typed.
import { ok } from '#lib/http/rest.ts';
import { deviceOf, deviceOperation } from '#lib/bank/http/device-auth.ts';
import { securityLog } from '#lib/bank/http/glue.ts';
import { pushAnswerBody } from '#lib/bank/mfa-schemas.ts';
import { challengePath } from '#lib/bank/params.ts';
import { pushChallengeAnswerer } from '#lib/bank/wiring.ts';

export const handler = deviceOperation(
  { path: challengePath, body: { schema: pushAnswerBody } },
  async (req) =>
    ok(
      await pushChallengeAnswerer().answer(
        deviceOf(req),
        req.path.verificationId,
        req.body.response,
        securityLog(req),
      ),
    ),
);
