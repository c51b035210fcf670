// ANY on every News route: 405 with Allow for a method the route does not have; CORS preflight.
import { methodNotAllowedHandler } from '#lib/http/fallback.ts';
import { newsDialect } from '#lib/news/http/operation.ts';

export const handler = methodNotAllowedHandler(newsDialect);
