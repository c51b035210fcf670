// ANY on every Notes route: 405 with Allow for a method the route does not have (counted against a
// valid token's rate limit, with its X-RateLimit-* headers); CORS preflight.
import { methodNotAllowedHandler } from '#lib/http/fallback.ts';
import { authenticateCounted } from '#lib/identity/wiring.ts';
import { notesDialect } from '#lib/notes/kernel/http/dialect.ts';

export const handler = methodNotAllowedHandler(notesDialect, authenticateCounted);
