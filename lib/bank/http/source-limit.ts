// The per-source limit of the routes without an API token (lib/bank/source-limit.ts) as the guard
// of their operations (lib/http/api.ts): before anything, a source address past its refusals is
// 429; after, a 4xx answered (but that 429) counts as one refusal of the address.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../http/logger.ts';
import type { ApiEvent, ApiResult } from '../../http/types.ts';
import { sourceLimits } from '../wiring.ts';

/** API Gateway's view of who sent the request (REST: requestContext.identity.sourceIp). */
const sourceOf = (event: ApiEvent): string | undefined =>
  event.requestContext?.identity?.sourceIp ?? undefined;

export const sourceLimited = (): MiddlewareObj<ApiEvent, ApiResult, Error, Context> => {
  const limited = new WeakSet<object>();
  return {
    before: async (request) => {
      const address = sourceOf(request.event);
      if (!address) return;
      try {
        await sourceLimits().admit(address);
      } catch (err) {
        limited.add(request.event);
        throw err;
      }
    },
    onError: async (request) => {
      const address = sourceOf(request.event);
      const status = request.response?.statusCode ?? 0;
      if (!address || limited.has(request.event) || status < 400 || status >= 500) return;
      try {
        await sourceLimits().refused(address);
      } catch (err) {
        // The refusal stands as answered; a count lost to a store failure is only logged.
        logger.warn('source refusal not counted', { error: (err as Error).message });
      }
    },
  };
};
