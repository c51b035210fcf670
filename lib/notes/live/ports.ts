// What live editing needs from outside (adapters: dynamo-live.ts, s3 for large states,
// api-gateway-peers.ts; memory-live.ts for tests) and from the Notes service (LiveNotes).
import type { LiveAccess, LiveConnection, Ticket } from './model.ts';

export interface TicketStore {
  put(ticket: Ticket): Promise<void>;
  /** Takes the ticket away (single use): undefined when unknown or already taken. */
  take(hash: string): Promise<Ticket | undefined>;
}

export interface ConnectionStore {
  add(connection: LiveConnection): Promise<void>;
  get(connectionId: string): Promise<LiveConnection | undefined>;
  remove(connection: LiveConnection): Promise<void>;
  /** $disconnect: out of its note's and user's lists, kept by its id as `closed` a few minutes. */
  close(connection: LiveConnection): Promise<void>;
  ofNote(shortId: string): Promise<LiveConnection[]>;
  ofUser(userId: string): Promise<LiveConnection[]>;
  setAccess(connection: LiveConnection, access: LiveAccess): Promise<void>;
}

/** A stored update: its key (to delete it once merged) and who wrote it. */
export interface StoredUpdate {
  key: string;
  update: Uint8Array;
  by: string;
}

/** A note's live document as stored: the compacted state (revision `rev`) and the updates since. */
export interface StoredDoc {
  rev: number;
  state: Uint8Array;
  updates: StoredUpdate[];
}

export interface DocStore {
  /** Undefined when the note has no live document yet. `consistent`: a strongly consistent read. */
  load(shortId: string, opts?: { consistent?: boolean }): Promise<StoredDoc | undefined>;
  /** The current revision and the updates since (a warm copy catches up with it). */
  recent(shortId: string): Promise<{ rev: number; updates: StoredUpdate[] } | undefined>;
  /** The first state (revision 0); false when another writer created the document first. */
  create(shortId: string, state: Uint8Array): Promise<boolean>;
  append(shortId: string, update: Uint8Array, by: string): Promise<void>;
  /**
   * Replaces revision `from.rev` by `state` (which holds the updates `from.keys`), then deletes those
   * updates only; false (nothing changed) when another compaction got there first.
   */
  compact(shortId: string, from: { rev: number; keys: string[] }, state: Uint8Array): Promise<boolean>;
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
  /** The note's content, to create its document from (the note is marked live first); undefined when gone. */
  content(shortId: string): Promise<string | undefined>;
  /** Writes the live text as the note's content (REST limits, versions); false when it is gone. */
  saveContent(shortId: string, content: string, editorId: string): Promise<boolean>;
}
