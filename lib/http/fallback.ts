// Each API has one fallback function mounted with `ANY` on every path of the API. API Gateway
// (and the local runner) send it only requests whose method has no route of its own: CORS
// preflights get 204 with the CORS headers, everything else 405 with `Allow`. The allowed methods
// per resource come from the function's ALLOWED_METHODS variable in template.yaml (a test checks
// it against the template's routes). An API that counts calls per token (Notes) gives `countCaller`:
// a 405 to a valid token is then counted like any call and carries the token's X-RateLimit-*
// headers (429 over the limit); without a valid token it is the same 405, uncounted.
import { ApiError } from './errors.ts';
import type { Dialect } from './api.ts';
import { defineOperation } from './api.ts';
import { admitCounted, type Authenticate } from './middleware.ts';
import { noContent } from './types.ts';

const allowedMethods = (): Record<string, string> => JSON.parse(process.env.ALLOWED_METHODS ?? '{}');

export const methodNotAllowedHandler = (dialect: Dialect, countCaller?: Authenticate) =>
  defineOperation(dialect, {}, async ({ event, context }) => {
    const allow = allowedMethods()[event.resource] ?? '';
    if (event.httpMethod === 'OPTIONS') {
      return noContent({
        Allow: `${allow}, OPTIONS`,
        'Access-Control-Allow-Methods': `${allow},OPTIONS`,
        'Access-Control-Max-Age': '600',
      });
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(event.headers?.authorization ?? '')?.[1];
    const principal = countCaller && token ? await countCaller(token) : undefined;
    if (principal) admitCounted(principal, context);
    throw new ApiError(
      'method_not_allowed',
      `${event.httpMethod} is not allowed on ${event.path}; allowed: ${allow}`,
      { headers: { Allow: allow } },
    );
  });
