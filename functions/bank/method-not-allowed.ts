// ANY on every Bank route: 405 with Allow for a method the route does not have; CORS preflight.
import { methodNotAllowedHandler } from '#lib/http/fallback.ts';
import { restDialect } from '#lib/http/rest.ts';

export const handler = methodNotAllowedHandler(restDialect);
