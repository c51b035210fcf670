// Live editing's wiring (docs/live.md): each function's side with only the store methods it calls.
import { config } from '../../config.ts';
import { systemClock } from '../../domain/clock.ts';
import { systemIds } from '../../domain/ids.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { getNote, markLive } from '../notes/adapters/dynamo-notes.ts';
import type { NotesService } from '../notes/service.ts';
import { notesWith } from '../notes/wiring.ts';
import * as dynamo from './adapters/dynamo-live.ts';
import { closeConnection, sendToConnection } from './adapters/api-gateway-peers.ts';
import { liveNotesOf } from './notes-bridge.ts';
import type { ConnectionStore, DocStore, LiveTokens, Peers, TicketStore } from './ports.ts';
import { LiveDoor } from './door.ts';
import { LiveService } from './service.ts';

/** Joining (door.ts: no Yjs in these bundles) with only these store methods. */
const liveDoor = (
  parts: {
    tickets?: Partial<TicketStore>;
    connections?: Partial<ConnectionStore>;
    tokens?: Partial<LiveTokens>;
    peers?: Pick<Peers, 'send'>;
  },
  notesService: () => NotesService,
) =>
  new LiveDoor({
    tickets: only<TicketStore>('tickets', parts.tickets ?? {}),
    connections: only<ConnectionStore>('connections', parts.connections ?? {}),
    tokens: only<LiveTokens>('tokens', parts.tokens ?? {}),
    notes: liveNotesOf(notesService),
    clock: systemClock,
    ids: systemIds,
    url: () => config.liveUrl,
    ...(parts.peers ? { peers: parts.peers } : {}),
  });
/** The document's side (service.ts) with only these store methods. */
const liveService = (
  parts: { connections?: Partial<ConnectionStore>; docs?: Partial<DocStore>; peers?: Peers },
  notesService: () => NotesService,
) =>
  new LiveService({
    connections: only<ConnectionStore>('connections', parts.connections ?? {}),
    docs: only<DocStore>('live documents', parts.docs ?? {}),
    peers: parts.peers ?? only<Peers>('peers', {}),
    notes: liveNotesOf(notesService),
  });
/** A message's document: read (caught up), created the first time, appended to. */
const messageDocs: Partial<DocStore> = {
  load: dynamo.loadDoc,
  recent: dynamo.recentUpdates,
  create: dynamo.createDoc,
  append: dynamo.appendUpdate,
  reserve: dynamo.reserveRoom,
};
const peers: Peers = { send: sendToConnection, close: closeConnection };
/** The notes as live editing reads them: getNote only (access, content). */
const liveNoteReader = /* @__PURE__ */ once(() => notesWith({ getNote }));
/** The notes as a document's first message reads them: getNote, and the note marked live (markLive). */
const liveNoteStarter = /* @__PURE__ */ once(() => notesWith({ getNote, markLive }));
/** OpenLive, OpenTeamLive: the note's access, the ticket's PutItem. */
export const liveOpening = /* @__PURE__ */ once(() =>
  liveDoor({ tickets: { put: dynamo.putTicket } }, liveNoteReader),
);
/**
 * $connect: the ticket taken (DeleteItem), the note's access, the connection's three items, its
 * token still there (GetItem; else the items go again).
 */
export const liveConnecting = /* @__PURE__ */ once(() =>
  liveDoor(
    {
      tickets: { take: dynamo.takeTicket },
      connections: { add: dynamo.addConnection, remove: dynamo.removeConnection },
      tokens: { valid: dynamo.tokenValid },
    },
    liveNoteReader,
  ),
);
/**
 * $disconnect: the connection (GetItem) and its items removed; when it announced client ids, their
 * claims (a consistent GetItem each), the note's connections (Query) and the removal to each.
 */
export const liveDisconnecting = /* @__PURE__ */ once(() =>
  liveDoor(
    {
      connections: {
        get: dynamo.getConnection,
        close: dynamo.markConnectionClosed,
        owned: dynamo.ownedClientIds,
        ofNote: dynamo.connectionsOfNote,
      },
      peers: { send: sendToConnection },
    },
    () => {
      throw new Error('$disconnect reads no note');
    },
  ),
);
/** $default: the connection counted (UpdateItem), the document (created from the note the first time), the relay (an answer: its targets' claims). */
export const liveMessages = /* @__PURE__ */ once(() =>
  liveService(
    {
      connections: {
        count: dynamo.countMessage,
        remove: dynamo.removeConnection,
        ofNote: dynamo.connectionsOfNote,
        claim: dynamo.claimClientIds,
        holders: dynamo.claimHolders,
      },
      docs: messageDocs,
      peers,
    },
    liveNoteStarter,
  ),
);
/** The REST side's bridge (noteUpdater, lib/notes/wiring.ts): the document, its updates, the note's connections. */
export const liveBridge = /* @__PURE__ */ once(() =>
  liveService(
    {
      connections: { ofNote: dynamo.connectionsOfNote, remove: dynamo.removeConnection },
      docs: { load: dynamo.loadDoc, append: dynamo.appendUpdate, reserve: dynamo.reserveRoom },
      peers: {
        send: sendToConnection,
        close: () => Promise.reject(new Error('the REST bridge closes no connection')),
      },
    },
    liveNoteReader,
  ),
);
/** The stream function's service (liveChanges in lib/notes/wiring.ts flushes through the note's update). */
export const liveChangesFor = (notesService: () => NotesService) =>
  liveService(
    {
      connections: {
        ofNote: dynamo.connectionsOfNote,
        ofUser: dynamo.connectionsOfUser,
        remove: dynamo.removeConnection,
        setAccess: dynamo.setConnectionAccess,
      },
      docs: {
        load: dynamo.loadDoc,
        compact: dynamo.compactDoc,
        drop: dynamo.dropDoc,
        calibrate: dynamo.calibrateRoom,
      },
      peers,
    },
    notesService,
  );
export { liveChangesOf, streamTasksOf } from './adapters/stream-live.ts';
export { runStreamTasks } from './stream-work.ts';
