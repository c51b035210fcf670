// The Bank's security events on the HTTP side: each is logged at WARN with the user it is about, the
// caller (where there is one), the request id, the source address and the time.
import { logger } from '../../http/logger.ts';
import type { ApiEvent, HttpRequest } from '../../http/types.ts';
import type { SecurityLog } from '../mfa.ts';
import { emitSendsRefused } from '../wiring.ts';

/** Who made the request an event is logged for. */
export interface Requester {
  requestId: string;
  /** API Gateway's `identity.sourceIp`. */
  sourceIp?: string;
  /** The API token's user; absent on the device app's routes. */
  actorId?: string;
}

export const sourceIpOf = (event: ApiEvent): string | undefined =>
  event.requestContext?.identity?.sourceIp ?? undefined;

/** The stack's sends refused are also the metric its alarm watches (lib/bank/adapters/emf-metrics.ts). */
export const securityLogOf =
  (who: Requester): SecurityLog =>
  (event, userId, details) => {
    logger.warn('security event', {
      event,
      userId,
      actorId: who.actorId,
      requestId: who.requestId,
      sourceIp: who.sourceIp,
      time: new Date().toISOString(),
      ...details,
    });
    if (event === 'code_send_limited' && details?.limit === 'stackSends')
      emitSendsRefused(String(details.subject));
  };

/** Security events of a request go to the log with the acting user, the time and the request id. */
export const securityLog = (req: HttpRequest): SecurityLog =>
  securityLogOf({
    requestId: req.requestId,
    sourceIp: sourceIpOf(req.event),
    actorId: req.principal?.userId,
  });
