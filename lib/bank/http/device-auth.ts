// The device app's routes (/api/push/challenges) authenticate a push device, not an API token: a
// JWT the device signs with its key (ES256, kid = sub = the device id, exp at most 5 minutes ahead).
import type { Principal } from '../../domain/principal.ts';
import { authenticatedOperations } from '../../http/rest.ts';
import type { HttpRequest } from '../../http/rest.ts';
import type { Operation, OperationSpec, Schema } from '../../http/api.ts';
import { sourceLimited } from './source-limit.ts';
import type { PushDevice } from '../ports.ts';
import { requestIdOf } from '../../http/middleware.ts';
import { pushChallenges } from '../wiring.ts';
import { securityLogOf, sourceIpOf } from './security-log.ts';

/** The caller of a device route: the device's user, and the device. */
type DevicePrincipal = Principal & { device: PushDevice };

const deviceAuthenticated = authenticatedOperations(async (jwt, request): Promise<DevicePrincipal> => {
  const log =
    request &&
    securityLogOf({
      requestId: requestIdOf(request.event, request.context),
      sourceIp: sourceIpOf(request.event),
    });
  const device = await pushChallenges().authenticate(jwt, log);
  return { userId: device.userId, tokenHash: device.deviceId, device };
});

/** A device route: the device JWT, and the per-source limit of refused requests (./source-limit.ts). */
export const deviceOperation = <
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
>(
  spec: Omit<OperationSpec<B, Q, P>, 'auth' | 'guard'>,
  operation: Operation<B, Q, P>,
) => deviceAuthenticated({ ...spec, guard: sourceLimited() }, operation);

/** The push device that signed the request's JWT. */
export const deviceOf = (req: HttpRequest): PushDevice => (req.principal as DevicePrincipal).device;
