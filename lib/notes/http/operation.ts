// Every Notes route authenticates its caller with an API token.
import { authenticatedOperations } from '../../http/rest.ts';
import { authenticate } from '../../identity/wiring.ts';

export const notesOperation = authenticatedOperations(authenticate);
