// What live editing needs from outside (adapters: dynamo-live.ts, s3 for large states,
// api-gateway-peers.ts; memory-live.ts for tests) and from the Notes service (LiveNotes).
import type { LiveAccess, LiveConnection, RateKind, Ticket } from './model.ts';

export interface TicketStore {
  put(ticket: Ticket): Promise<void>;
  /** Takes the ticket away (single use): undefined when unknown or already taken. */
  take(hash: string): Promise<Ticket | undefined>;
}

/** The API tokens, as joining sees them (identity's items). */
export interface LiveTokens {
  /** Whether the token (its SHA-256) is still valid: not revoked. A strongly consistent read. */
  valid(tokenHash: string): Promise<boolean>;
}

export interface ConnectionStore {
  add(connection: LiveConnection): Promise<void>;
  get(connectionId: string): Promise<LiveConnection | undefined>;
  /**
   * The connection, with `add` (default 1) more messages of `kind` counted in the window that starts
   * at `windowStart` (epoch ms; an older window's count starts over): the count includes them.
   * Undefined when the connection is unknown. Atomic under concurrent messages. `clocks`: an
   * awareness message's clock per client id, kept on the connection (its `clocks`) in the same write.
   * `add` 0 without clocks writes nothing: a strongly consistent read of the connection and its count.
   */
  count(
    connectionId: string,
    kind: RateKind,
    windowStart: number,
    clocks?: Record<number, number>,
    add?: number,
  ): Promise<{ connection: LiveConnection; count: number } | undefined>;
  remove(connection: LiveConnection): Promise<void>;
  /** $disconnect: out of its note's and user's lists, kept by its id as `closed` a few minutes. */
  close(connection: LiveConnection): Promise<void>;
  ofNote(shortId: string): Promise<LiveConnection[]>;
  ofUser(userId: string): Promise<LiveConnection[]>;
  setAccess(connection: LiveConnection, access: LiveAccess): Promise<void>;
  /**
   * Claims Yjs client ids for the connection within its note: an id is taken when no one holds it,
   * or this connection, or another connection of the same user (a client reconnecting keeps its
   * id). Answers the ids now the connection's; they join its `clientIds`.
   */
  claim(connection: LiveConnection, clientIds: number[]): Promise<number[]>;
  /** Which of the connection's `clientIds` it still owns (a strongly consistent read of each claim). */
  owned(connection: LiveConnection): Promise<number[]>;
  /** The connections holding these client ids in the note (a strongly consistent read of each claim). */
  holders(shortId: string, clientIds: number[]): Promise<string[]>;
}

/** A stored update: its key (to delete it once merged) and who wrote it. */
export interface StoredUpdate {
  key: string;
  update: Uint8Array;
  by: string;
  /** A REST content change's last piece: the note's version that change wrote. */
  rest?: number;
  /** The bytes it inserts (what it took of the room: DocStore.reserve). */
  grown?: number;
}

/** A note's live document as stored: the compacted state (revision `rev`) and the updates since. */
export interface StoredDoc {
  rev: number;
  state: Uint8Array;
  updates: StoredUpdate[];
  /** The note's version the state holds every REST content change up to (its seed, compactions). */
  restVersion: number;
  /** The `grown` bytes of the updates merged into the state (compactions). */
  settled: number;
}

export interface DocStore {
  /** Undefined when the note has no live document yet. `consistent`: a strongly consistent read. */
  load(shortId: string, opts?: { consistent?: boolean }): Promise<StoredDoc | undefined>;
  /** The current revision and the updates since (a warm copy catches up with it). */
  recent(shortId: string): Promise<{ rev: number; updates: StoredUpdate[] } | undefined>;
  /**
   * The first state (revision 0), from the note's content at version `restVersion`; false when
   * another writer created the document first.
   */
  create(shortId: string, state: Uint8Array, restVersion: number): Promise<boolean>;
  /** `rest`: the last piece of a REST content change, the note's version it wrote; `grown`: reserved. */
  append(
    shortId: string,
    update: Uint8Array,
    by: string,
    marks?: { rest?: number; grown?: number },
  ): Promise<void>;
  /**
   * The serialised point of the content limit: `bytes` taken from the note's room (what the content
   * may still grow by, an upper bound of its size counted against the limit). `strict`: only when
   * the room holds them (else false, nothing taken); else always (a change that does not grow the
   * content, a REST change). `init`: the room when none is kept yet. `until` (epoch ms): the bytes
   * are a grant, used by its taker for several updates until then; the room keeps the latest such
   * time (`calibrate` gives back what dead grants left unused only once it is long past).
   */
  reserve(
    shortId: string,
    bytes: number,
    opts: { init: number; strict: boolean; until?: number },
  ): Promise<boolean>;
  /**
   * The room becomes `base` less every reservation so far: `base` is the limit less the content's
   * size in a consistent read, plus the bytes the updates in that read had reserved (so what was
   * reserved and not yet stored stays taken; what was deleted is given back). A store may leave out
   * a calibration that would only give room back while the room is ample (half the limit or more).
   * `held`: those bytes the updates in the read had reserved; once every grant is long past (no
   * taker may use one), the reservations become `held`: what grants left unused is given back.
   */
  calibrate(shortId: string, base: number, held?: number): Promise<void>;
  /**
   * Replaces revision `from.rev` by `state` (which holds the updates `from.keys`), then deletes those
   * updates only; false (nothing changed) when another compaction got there first.
   */
  compact(
    shortId: string,
    from: { rev: number; keys: string[]; restVersion: number; settled: number },
    state: Uint8Array,
  ): Promise<boolean>;
  /** Removes the document (its items and S3 state): the note was purged for good. */
  drop(shortId: string): Promise<void>;
}

/** The connections' far end (API Gateway's @connections): false when the connection is gone. */
export interface Peers {
  send(connectionId: string, data: string): Promise<boolean>;
  close(connectionId: string): Promise<void>;
}

export interface NoteAccess {
  read: boolean;
  write: boolean;
}

/** The Notes service as live editing sees it (lib/notes/notes/service.ts). */
export interface LiveNotes {
  /** A note the caller may read (NotFound, Forbidden as GetNote). */
  open(
    userId: string,
    ref: string,
    teamPath?: string,
  ): Promise<{ id: string; shortId: string; teamPath: string | null; access: NoteAccess }>;
  /** What the user may do with the note now; undefined when it is gone (deleted, trashed, unknown). */
  access(userId: string, shortId: string): Promise<NoteAccess | undefined>;
  /**
   * The note's content and version, to create its document from (the note is marked live first);
   * undefined when it is gone.
   */
  content(shortId: string): Promise<{ content: string; version: number } | undefined>;
  /**
   * Writes the live text as the note's content (REST limits, versions); false when it is gone. Not
   * when a REST write after `restVersion` (which the text lacks) set the content.
   */
  saveContent(shortId: string, content: string, editorId: string, restVersion: number): Promise<boolean>;
}
