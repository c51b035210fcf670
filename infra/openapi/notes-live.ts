// The live editing connect operations of the Notes document: an extension (x-extension: HackMD's
// editor edits live over its own socket, its API cannot). Built from lib/notes/live/schemas.ts.
import type { ErrorType } from '../../lib/http/errors.ts';
import { liveOpening } from '../../lib/notes/live/schemas.ts';
import { type PathItem, type RoutedOperation, schema } from './build.ts';

type Errors = (...types: ErrorType[]) => Record<string, unknown>;
type Params = Record<string, unknown>[];

const example = {
  url: 'wss://abc123.execute-api.eu-west-1.amazonaws.com/prod?ticket=q3Yv0Qm3c0y1mXoR3f8Jm2a6l8Qx0kXb7wZ3n9pT4sU',
  expiresAt: 1795860060000,
  access: 'write',
};

const description = (team: boolean) =>
  'Extension of this API: live editing of the note over a WebSocket, with Yjs (docs/live.md). Answers ' +
  'the URL to connect to, with a single-use ticket in its query string (valid 60 s, bound to the caller ' +
  'and the note; no API token ever appears in a URL), and `access`: `write` when the caller may change ' +
  "the note, else `read` (the connection's updates are never applied). Each WebSocket message is one " +
  'y-protocols message (0 sync, 1 awareness) in base64 in a text frame; the `Y.Text` named `content` is ' +
  "the note's markdown. A live edit is in GET within about 2 s; a PATCH of `content` reaches live " +
  'clients as the smallest change. A permission change, trashing or deleting the note' +
  `${team ? ', or leaving the team,' : ''} closes or downgrades connections within 5 s. ` +
  `403/404 as for ${team ? 'GetTeamNote' : 'GetNote'}.`;

export function livePaths(errors: Errors, note: Params, teamNote: Params): Record<string, PathItem> {
  const op = (team: boolean): RoutedOperation => ({
    'x-extension': true,
    description: description(team),
    parameters: team ? teamNote : note,
    responses: {
      201: {
        description: 'The URL to connect to, when it expires, and the access it gives',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/LiveOpening' }, example } },
      },
      ...errors('bad_request', 'forbidden', 'not_found'),
    },
  });
  return {
    '/v1/notes/{noteId}/live': { post: op(false) },
    '/v1/teams/{teamPath}/notes/{noteId}/live': { post: op(true) },
  };
}

export const liveSchemas = () => ({ LiveOpening: schema(liveOpening) });
