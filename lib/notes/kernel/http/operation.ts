// Every Notes route authenticates its caller with an API token, and counts the call against the
// token's rate limit (X-RateLimit-User* on every response; 429 over the limit). Errors are in the
// Notes dialect (HackMD's members beside the REST dialect's).
import { authenticatedOperations } from '../../../http/rest.ts';
import { authenticateCounted } from '../../../identity/wiring.ts';
import { notesDialect } from './dialect.ts';

export const notesOperation = authenticatedOperations(authenticateCounted, notesDialect);
