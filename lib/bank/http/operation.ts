// Every Bank route authenticates its caller with an API token. A step-up that does not hold (missing,
// pending, old, used or another user's) is refused with 403 and logged: `step_up_refused`.
import { StepUpRequired } from '../../domain/errors.ts';
import { authenticatedOperations } from '../../http/rest.ts';
import type { HttpRequest } from '../../http/types.ts';
import { authenticate } from '../../identity/wiring.ts';
import { securityLog } from './security-log.ts';

const operations = authenticatedOperations(authenticate);

export const bankOperation: typeof operations = (spec, operation) =>
  operations(spec, async (req) => {
    try {
      return await operation(req);
    } catch (err) {
      if (err instanceof StepUpRequired) stepUpRefused(req);
      throw err;
    }
  });

function stepUpRefused(req: HttpRequest): void {
  const path = req.path as { userId?: string; deviceId?: string } | undefined;
  securityLog(req)('step_up_refused', path?.userId ?? req.principal.userId, {
    ...(path?.deviceId ? { deviceId: path.deviceId } : {}),
    verificationId: req.headers['x-mfa-verification'] ?? null,
    route: `${req.event.httpMethod} ${req.event.resource}`,
  });
}
