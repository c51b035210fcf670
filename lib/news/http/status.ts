// The status route's one piece of HTTP: when the counters are unreachable, 503 whose envelope
// carries the offline status body, the same body the gateway serves when no function can run
// (template.yaml).
import { Unavailable } from '../../domain/errors.ts';
import { ApiError, fromDomainError } from '../../http/errors.ts';

export const OFFLINE_STATUS = { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 } as const;

export async function statusOrOffline<T>(status: () => Promise<T>): Promise<T> {
  try {
    return await status();
  } catch (err) {
    if (!(err instanceof Unavailable)) throw err;
    const { type, description, headers } = fromDomainError(err);
    throw new ApiError(type, description, { headers, extra: { response: OFFLINE_STATUS } });
  }
}
