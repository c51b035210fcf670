// WebSocket $disconnect (NotesLiveApi): the connection leaves its note.
import { websocketRoute } from '#lib/notes/live/http.ts';
import { liveDisconnecting } from '#lib/notes/live/wiring.ts';

export const handler = websocketRoute((_event, connectionId) => liveDisconnecting().disconnect(connectionId));
