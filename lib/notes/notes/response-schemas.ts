// The create body as a client may send it, as documented (the request's own schema is ./schemas.ts;
// the responses every feature shares: ../kernel/response-schemas.ts). infra/openapi/notes.ts
// documents it. No function imports this module.
import * as v from 'valibot';
import { noteCreation } from './schemas.ts';

/** The same body as documented (what a client may send). */
export const createNoteBodyDocumented = v.union([
  v.pipe(v.string(), v.description('The note content')),
  noteCreation,
]);
