// Each API has one fallback function mounted with `ANY` on every path of the API. API Gateway
// (and the local runner) send it only requests whose method has no route of its own: CORS
// preflights get 204 with the CORS headers, everything else 405 with `Allow`. The allowed methods
// per resource come from the function's ALLOWED_METHODS variable in template.yaml (a test checks
// it against the template's routes).
import { ApiError } from './errors.ts';
import type { Dialect } from './api.ts';
import { defineOperation } from './api.ts';
import { noContent } from './types.ts';

const allowedMethods = (): Record<string, string> => JSON.parse(process.env.ALLOWED_METHODS ?? '{}');

export const methodNotAllowedHandler = (dialect: Dialect) =>
  defineOperation(dialect, {}, async ({ event }) => {
    const allow = allowedMethods()[event.resource] ?? '';
    if (event.httpMethod === 'OPTIONS') {
      return noContent({
        Allow: `${allow}, OPTIONS`,
        'Access-Control-Allow-Methods': `${allow},OPTIONS`,
        'Access-Control-Max-Age': '600',
      });
    }
    throw new ApiError(
      'method_not_allowed',
      `${event.httpMethod} is not allowed on ${event.path}; allowed: ${allow}`,
      { headers: { Allow: allow } },
    );
  });
