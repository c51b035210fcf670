// Joining a note's live editing (docs/live.md): single-use tickets and the connections' lifecycle.
// Apart from the document (service.ts) so the functions that only open, connect and disconnect
// bundle no Yjs (cold start).
import { createHash } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { NotFound, Unauthenticated } from '../../domain/errors.ts';
import type { Ids } from '../../domain/ids.ts';
import {
  type LiveAccess,
  type LiveCaller,
  type LiveConnection,
  type LiveOpening,
  TICKET_SECONDS,
} from './model.ts';
import { removalMessage } from './farewell.ts';
import type { ConnectionStore, LiveNotes, LiveTokens, NoteAccess, Peers, TicketStore } from './ports.ts';

export interface LiveDoorDependencies {
  tickets: TicketStore;
  connections: ConnectionStore;
  tokens: LiveTokens;
  notes: LiveNotes;
  clock: Clock;
  ids: Ids;
  /** The WebSocket URL clients connect to (NOTES_LIVE_URL). */
  url: () => string;
  /** The other connections of a note (to remove a gone connection's cursors). */
  peers?: Pick<Peers, 'send'>;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
export const accessOf = (a: NoteAccess): LiveAccess => (a.write ? 'write' : 'read');

export class LiveDoor {
  constructor(private readonly deps: LiveDoorDependencies) {}

  /** POST /v1/notes/{noteId}/live: a single-use URL for this caller (user and token) and this note. */
  async open(caller: LiveCaller, ref: string, teamPath?: string): Promise<LiveOpening> {
    const { userId, tokenHash } = caller;
    const note = await this.deps.notes.open(userId, ref, teamPath);
    const secret = this.deps.ids.bytes(32).toString('base64url');
    const expiresAt = this.deps.clock.now() + TICKET_SECONDS * 1000;
    await this.deps.tickets.put({
      hash: hashOf(secret),
      userId,
      noteId: note.id,
      shortId: note.shortId,
      expiresAt,
      tokenHash,
    });
    const url = new URL(this.deps.url());
    url.searchParams.set('ticket', secret);
    return { url: url.toString(), expiresAt, access: accessOf(note.access) };
  }

  /**
   * $connect: the ticket is taken (single use), checked, and the connection joins the note. Its
   * token is checked after the connection is stored: a revocation either finds the connection (the
   * stream closes it) or is seen here (refused), never neither.
   */
  async connect(connectionId: string, ticket: string | undefined): Promise<LiveConnection> {
    const taken = ticket ? await this.deps.tickets.take(hashOf(ticket)) : undefined;
    if (!taken || taken.expiresAt <= this.deps.clock.now())
      throw new Unauthenticated(
        'The ticket is missing, used or expired: ask POST /v1/notes/{noteId}/live for a new one',
      );
    const access = await this.deps.notes.access(taken.userId, taken.shortId);
    if (!access?.read) throw new NotFound('The note does not exist');
    const opened = await this.deps.notes.open(taken.userId, taken.shortId);
    const connection: LiveConnection = {
      connectionId,
      userId: taken.userId,
      noteId: taken.noteId,
      shortId: taken.shortId,
      teamPath: opened.teamPath,
      access: accessOf(access),
      connectedAt: this.deps.clock.now(),
      ...(taken.tokenHash ? { tokenHash: taken.tokenHash } : {}),
    };
    await this.deps.connections.add(connection);
    if (taken.tokenHash && !(await this.deps.tokens.valid(taken.tokenHash))) {
      await this.deps.connections.remove(connection);
      throw new Unauthenticated('The API token that asked for this URL has been revoked');
    }
    return connection;
  }

  /**
   * $disconnect: the connection leaves its note's relays, but its record stays (closed) a few
   * minutes: API Gateway may still deliver messages it sent before closing ($default runs
   * concurrently, unordered), and they are applied (service.ts receive). A client that vanished
   * said no goodbye: its cursors go from the others here.
   */
  async disconnect(connectionId: string): Promise<void> {
    const connection = await this.deps.connections.get(connectionId);
    if (!connection || connection.closed) return;
    await this.deps.connections.close(connection);
    await this.removeCursors(connection);
  }

  /**
   * The note's other connections are sent a `null` state, one clock past the last this connection
   * sent, for each client id it announced and still owns (not one a later connection took over).
   */
  private async removeCursors(gone: LiveConnection): Promise<void> {
    const announced = (gone.clientIds ?? []).filter((id) => gone.clocks?.[id] !== undefined);
    if (announced.length === 0) return;
    const owned = await this.deps.connections.owned({ ...gone, clientIds: announced });
    if (owned.length === 0) return;
    const message = removalMessage(owned.map((id) => ({ clientId: id, clock: gone.clocks![id]! + 1 })));
    const others = await this.deps.connections.ofNote(gone.shortId);
    const peers = this.deps.peers!;
    await Promise.all(
      others
        .filter((c) => c.connectionId !== gone.connectionId)
        .map((c) => peers.send(c.connectionId, message)),
    );
  }
}
