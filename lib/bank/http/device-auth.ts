// The device app's routes (/api/push/challenges) authenticate a push device, not an API token: a
// JWT the device signs with its key (ES256, kid = sub = the device id, exp at most 5 minutes ahead).
import type { Principal } from '../../domain/principal.ts';
import { authenticatedOperations } from '../../http/rest.ts';
import type { HttpRequest } from '../../http/rest.ts';
import type { PushDevice } from '../ports.ts';
import { requestIdOf } from '../../http/middleware.ts';
import { pushChallenges } from '../wiring.ts';
import { securityLogOf, sourceIpOf } from './security-log.ts';

/** The caller of a device route: the device's user, and the device. */
type DevicePrincipal = Principal & { device: PushDevice };

export const deviceOperation = authenticatedOperations(async (jwt, request): Promise<DevicePrincipal> => {
  const log =
    request &&
    securityLogOf({
      requestId: requestIdOf(request.event, request.context),
      sourceIp: sourceIpOf(request.event),
    });
  const device = await pushChallenges().authenticate(jwt, log);
  return { userId: device.userId, tokenHash: device.deviceId, device };
});

/** The push device that signed the request's JWT. */
export const deviceOf = (req: HttpRequest): PushDevice => (req.principal as DevicePrincipal).device;
