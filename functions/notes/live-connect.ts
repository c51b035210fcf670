// WebSocket $connect (NotesLiveApi): takes the single-use ticket of the URL (?ticket=) and joins the
// connection to its note; 401 (no valid ticket) or 404 (note gone or unreadable) refuses the upgrade.
import { websocketRoute } from '#lib/notes/live/http.ts';
import { liveConnecting } from '#lib/notes/live/wiring.ts';

export const handler = websocketRoute((event, connectionId) =>
  liveConnecting().connect(connectionId, event.queryStringParameters?.ticket),
);
