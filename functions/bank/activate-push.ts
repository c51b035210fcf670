// POST /api/push/activations: the device app activates a push factor with its ticket and public key.
import { created } from '#lib/http/rest.ts';
import { securityLog } from '#lib/bank/http/glue.ts';
import { sourceLimited } from '#lib/bank/http/source-limit.ts';
import { restOperation } from '#lib/http/rest.ts';
import { pushActivationBody } from '#lib/bank/mfa-schemas.ts';
import { pushActivator } from '#lib/bank/wiring.ts';

export const handler = restOperation(
  { body: { schema: pushActivationBody }, guard: sourceLimited() },
  async (req) => created(await pushActivator().activatePush(req.body, securityLog(req))),
);
