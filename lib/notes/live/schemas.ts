// valibot schema of the connect URL's answer (POST /v1/notes/{noteId}/live): the OpenAPI document
// and the tests' response checks are built from it.
import * as v from 'valibot';
import { object } from '../../domain/schema.ts';
import { int } from '../../domain/schema-numbers.ts';

export const liveOpening = object({
  url: v.pipe(
    v.string(),
    v.description(
      'The WebSocket URL with a single-use ticket (valid 60 s, bound to the caller and the note)',
    ),
  ),
  expiresAt: v.pipe(int(), v.description('When the ticket expires (epoch milliseconds)')),
  access: v.pipe(
    v.picklist(['write', 'read']),
    v.description("What the connection may do: a read connection's updates are never applied"),
  ),
});
