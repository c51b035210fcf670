// Every Notes route authenticates its caller with an API token, and counts the call against the
// token's rate limit (X-RateLimit-User* on every response; 429 over the limit).
import { authenticatedOperations } from '../../http/rest.ts';
import { authenticateCounted } from '../../identity/wiring.ts';

export const notesOperation = authenticatedOperations(authenticateCounted);
