// WebSocket $default (NotesLiveApi): one y-protocols message (base64 text frame) from a connection:
// sync answered, updates checked, stored and relayed, awareness relayed (docs/live.md, "Protocol").
import { websocketRoute } from '#lib/notes/live/http.ts';
import { liveMessages } from '#lib/notes/live/wiring.ts';

export const handler = websocketRoute((event, connectionId) =>
  liveMessages().receive(connectionId, event.body ?? ''),
);
