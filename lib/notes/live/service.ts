// Live editing of a note (docs/live.md), once connected (joining: door.ts): the Yjs
// document (stored as a compacted state and small updates), the sync and awareness protocol on the
// server, access checks and revocation, and the bridge between the REST content and the document.
import * as Y from 'yjs';
import { NotFound } from '../../domain/errors.ts';
import { MAX_CONTENT_BYTES } from '../kernel/model.ts';
import {
  docOf,
  insertedBytes,
  restChange,
  seedUpdate,
  shapeRefusal,
  splitUpdate,
  structureOf,
  structureRefusal,
  textOf,
} from './document.ts';
import {
  COMPACT_AFTER_UPDATES,
  errorFrame,
  type LiveConnection,
  MAX_CLIENT_MESSAGE_BYTES,
  MAX_SENT_UPDATE_BYTES,
  RATE_CLOSE_FACTOR,
  RATE_LIMITS,
  type RateKind,
} from './model.ts';
import type { ConnectionStore, DocStore, LiveNotes, Peers, StoredDoc } from './ports.ts';
import {
  type AwarenessState,
  answerMessage,
  awarenessMessage,
  type Incoming,
  readMessage,
  step1Message,
  step2Message,
  updateMessage,
} from './protocol.ts';

export interface LiveDependencies {
  connections: ConnectionStore;
  docs: DocStore;
  peers: Peers;
  notes: LiveNotes;
  /** The wall clock of the rate limits' windows (epoch ms; default Date.now). */
  now?: () => number;
}

/** Which rate limit a message counts against. */
const rateKindOf = (m: Incoming | undefined): RateKind =>
  m?.kind === 'step1' ? 'step1' : m?.kind === 'awareness' || m?.kind === 'answer' ? 'awareness' : 'update';
const RATE_NAMES: Record<RateKind, string> = {
  step1: 'sync step 1 messages',
  awareness: 'awareness messages',
  update: 'update messages',
};

/**
 * A connection this young may still be in its $connect (API Gateway's integration timeout is 29 s):
 * a relay that finds it gone does not remove it.
 */
const CONNECTING_MS = 30_000;

/** At most this many documents are kept warm by one function instance. */
const WARM_DOCS = 16;

/**
 * A connection's messages of one kind counted by this instance in the current window: `stored`,
 * the count as last read or written; `unwritten`, its own not yet written; whether it warned, closed.
 */
interface RateWindow {
  start: number;
  stored: number;
  unwritten: number;
  warned: boolean;
  shut: boolean;
}
/** An instance writes a window's update count every this many messages (and from half the limit on, each). */
const RATE_WRITE_EVERY = 8;
/**
 * A growing update far from the content limit takes this much more of the note's room than it needs,
 * for the next ones of this instance (a write per grant, not per update), for at most GRANT_MS.
 */
const GRANT_BYTES = 8 * 1024;
const GRANT_MS = 60_000;
/** Grants are taken while the content leaves this much of the limit; nearer, exact reservations. */
const GRANT_FAR_BYTES = 4 * GRANT_BYTES;
/** The windows an instance keeps (the newest: the connections it served last). */
const RATE_WINDOWS_KEPT = 2_000;

/** A document kept warm between messages of one function instance, with what it holds. */
interface WarmDoc {
  doc: Y.Doc;
  rev: number;
  applied: Set<string>;
}

export class LiveService {
  /** Per note: the document as this instance last read it (caught up on each message). */
  private readonly warm = new Map<string, WarmDoc>();
  /** Per note: the rest of this instance's grant of room, and until when it may use it. */
  private readonly grants = new Map<string, { left: number; until: number }>();
  /** Per connection and rate kind: its current window as this instance counts it. */
  private readonly windows = new Map<string, RateWindow>();
  constructor(private readonly deps: LiveDependencies) {}

  /** $default: one y-protocols message (base64) from a connection, counted against its rate limits. */
  async receive(connectionId: string, body: string): Promise<void> {
    const tooLarge = Buffer.byteLength(body, 'utf8') > MAX_CLIENT_MESSAGE_BYTES;
    const message = tooLarge ? undefined : readMessage(body);
    const kind = rateKindOf(message);
    const counted = await this.count(
      connectionId,
      kind,
      message?.kind === 'awareness' || message?.kind === 'answer' ? clocksOf(message.states) : undefined,
    );
    if (!counted) {
      await this.refuse(connectionId, 'access_changed', 'This connection no longer has access to the note');
      await this.deps.peers.close(connectionId);
      return;
    }
    const { connection: from, count, window } = counted;
    if (count > RATE_LIMITS[kind].limit) return this.overLimit(from, kind, count, window);
    if (tooLarge)
      return this.refuse(
        connectionId,
        'message_too_large',
        `A message may be at most ${MAX_CLIENT_MESSAGE_BYTES} bytes: send a large change as several updates`,
      );
    if (from.closed) {
      // Sent before the client closed: an update of a write connection is applied; nothing is answered.
      if (from.access === 'write' && (message?.kind === 'update' || message?.kind === 'step2'))
        return this.accept(from, message.update);
      return;
    }
    if (!message)
      return this.refuse(connectionId, 'bad_message', 'Not a base64 y-protocols sync or awareness message');
    if (message.kind === 'awareness') return this.relayAwareness(from, message.states, body);
    if (message.kind === 'answer') return this.relayAwareness(from, message.states, body, message.targets);
    if (message.kind === 'step1') return this.answerStep1(from, message.stateVector);
    if (from.access === 'read') {
      // A read connection's updates are never applied (its answer to our step 1 is ignored quietly).
      if (message.kind === 'update')
        await this.refuse(connectionId, 'read_only', 'This connection may read the note but not change it');
      return;
    }
    return this.accept(from, message.update);
  }

  /**
   * The message counted in its window, with the connection as stored (a strongly consistent read:
   * its access, whether it is closed, its client ids). The count is this instance's: the window's
   * messages it has not written yet, on top of the connection's stored count, which it reads each
   * time (what other instances wrote). It writes update messages (one UpdateItem) every
   * RATE_WRITE_EVERY of a window and from half the limit on at each message; a sync step 1 (each
   * answered with the document) and an awareness message (its clocks) at each message, as counted;
   * so another instance, or this one restarted, counts on from what is stored, and a window's count
   * is exact whenever one instance serves the connection.
   */
  private async count(connectionId: string, kind: RateKind, clocks?: Record<number, number>) {
    const { limit, windowSeconds } = RATE_LIMITS[kind];
    const now = (this.deps.now ?? Date.now)();
    const windowStart = now - (now % (windowSeconds * 1000));
    const key = `${connectionId} ${kind}`;
    let window = this.windows.get(key);
    if (window?.start !== windowStart) {
      window = { start: windowStart, stored: 0, unwritten: 0, warned: false, shut: false };
      this.windows.delete(key);
      this.windows.set(key, window);
      for (const [k, w] of this.windows) {
        if (this.windows.size <= RATE_WINDOWS_KEPT) break;
        if (w !== window) this.windows.delete(k);
      }
    }
    window.unwritten += 1;
    const write =
      kind !== 'update' ||
      clocks !== undefined ||
      window.unwritten >= RATE_WRITE_EVERY ||
      window.stored + window.unwritten > limit / 2;
    const add = write ? window.unwritten : 0;
    const counted = await this.deps.connections.count(connectionId, kind, windowStart, clocks, add);
    if (!counted) return undefined;
    if (write) window.unwritten -= add;
    window.stored = counted.count;
    return { connection: counted.connection, count: counted.count + window.unwritten, window };
  }

  /**
   * A message past its kind's limit is dropped: the first of the window is answered `rate_limited`,
   * and at RATE_CLOSE_FACTOR times the limit the connection is closed (a flood costs one counting
   * write per message, never a document load or a relay).
   */
  private async overLimit(from: LiveConnection, kind: RateKind, count: number, window: RateWindow) {
    if (from.closed) return;
    const { limit, windowSeconds } = RATE_LIMITS[kind];
    const what = `At most ${limit} ${RATE_NAMES[kind]} per ${windowSeconds} s per connection`;
    if (count >= limit * RATE_CLOSE_FACTOR) {
      if (window.shut) return;
      window.shut = true;
      await this.refuse(from.connectionId, 'rate_limited', `${what}: far past it, the connection is closed`);
      await this.deps.peers.close(from.connectionId);
    } else if (!window.warned) {
      window.warned = true;
      await this.refuse(
        from.connectionId,
        'rate_limited',
        `${what}: this one and the next in the window are dropped${kind === 'update' ? ' (sync again after it: sync step 1)' : ''}`,
      );
    }
  }

  /**
   * Only the states of the client ids the connection owns are relayed (another connection's id, or
   * a removal of one, is left out quietly: y-protocols clients pass on what they heard); an id no
   * one holds is claimed by its first announcer. An answer goes to the connections that hold its
   * targets (in the note; the sender's own left out) alone.
   */
  private async relayAwareness(
    from: LiveConnection,
    states: AwarenessState[],
    body: string,
    targets?: number[],
  ) {
    const owned = new Set(from.clientIds ?? []);
    const unowned = [
      ...new Set(states.filter((s) => !owned.has(s.clientId) && s.json !== 'null').map((s) => s.clientId)),
    ];
    if (unowned.length > 0) for (const id of await this.deps.connections.claim(from, unowned)) owned.add(id);
    const mine = states.filter((s) => owned.has(s.clientId));
    if (mine.length === 0) return;
    if (!targets) return this.relay(from, mine.length === states.length ? body : awarenessMessage(mine));
    const holders = new Set(await this.deps.connections.holders(from.shortId, targets));
    holders.delete(from.connectionId);
    const data = mine.length === states.length ? body : answerMessage(targets, mine);
    await Promise.all([...holders].map((id) => this.deps.peers.send(id, data)));
  }

  /** Sync step 2 (what the client lacks, in pieces under the message limit), then our step 1. */
  private async answerStep1(to: LiveConnection, stateVector: Uint8Array): Promise<void> {
    const { doc } = await this.current(to.shortId);
    let missing: Uint8Array;
    try {
      missing = Y.encodeStateAsUpdate(doc, stateVector);
    } catch {
      return this.refuse(to.connectionId, 'bad_message', 'The sync step 1 holds no valid state vector');
    }
    const pieces = splitUpdate(missing, MAX_SENT_UPDATE_BYTES);
    for (const [i, piece] of pieces.entries()) {
      const last = i === pieces.length - 1;
      if (!(await this.deps.peers.send(to.connectionId, last ? step2Message(piece) : updateMessage(piece))))
        return;
    }
    await this.deps.peers.send(to.connectionId, step1Message(Y.encodeStateVector(doc)));
  }

  /** A write connection's update: checked against the content limit, stored, relayed. */
  private async accept(from: LiveConnection, update: Uint8Array): Promise<void> {
    // What a live document may hold is checked here, so nothing stored can break a later load.
    const misshapen = shapeRefusal(update);
    if (misshapen) return this.refuse(from.connectionId, 'bad_message', misshapen);
    const warm = await this.current(from.shortId);
    let fresh: boolean;
    const before = Buffer.byteLength(textOf(warm.doc), 'utf8');
    const shape = structureOf(warm.doc);
    const writers = Y.decodeStateVector(Y.encodeStateVector(warm.doc));
    try {
      fresh = changesSomething(update, warm.doc);
      if (fresh) Y.applyUpdate(warm.doc, update);
    } catch {
      this.warm.delete(from.shortId);
      return this.refuse(from.connectionId, 'bad_message', 'The update is not a valid Yjs update');
    }
    if (!fresh) return;
    const tooMuch = structureRefusal(warm.doc, shape);
    if (tooMuch) {
      this.warm.delete(from.shortId); // it holds the refused update: read again next time
      return this.refuse(from.connectionId, 'document_too_large', `${tooMuch}: the change was not applied`);
    }
    // An update that does not grow the content is always allowed (a note past the limit, by writers
    // on two instances at once, can always be brought back under it).
    const after = Buffer.byteLength(textOf(warm.doc), 'utf8');
    // The serialised point: what it inserts is taken from the note's room, which writers on other
    // instances take from too (a change that does not grow the content on this copy takes it always).
    const grown = insertedBytes(update);
    const room = { init: MAX_CONTENT_BYTES - before, strict: after > before };
    const over = after > MAX_CONTENT_BYTES && after > before;
    if (over || (grown > 0 && !(await this.take(from.shortId, grown, room, MAX_CONTENT_BYTES - after)))) {
      this.warm.delete(from.shortId); // it holds the refused update: read again next time
      return this.refuse(
        from.connectionId,
        'content_too_large',
        `The note's content may be at most ${MAX_CONTENT_BYTES} bytes of UTF-8: the change was not applied; undo it`,
      );
    }
    // A client id first seen in this update is the writer's (claimed before any other connection
    // hears of it), so no one else can announce a cursor under it.
    const owned = new Set(from.clientIds ?? []);
    const newcomers = [...Y.parseUpdateMeta(update).from.keys()].filter(
      (id) => !writers.has(id) && !owned.has(id),
    );
    if (newcomers.length > 0) await this.deps.connections.claim(from, newcomers);
    // Stored and relayed at once (the relay does not wait for the write): an update the store then
    // failed to keep is still in the clients' documents, which send it again at their next sync.
    await Promise.all([
      this.deps.docs.append(from.shortId, update, from.userId, grown > 0 ? { grown } : {}),
      this.relay(from, updateMessage(update)),
    ]);
  }

  /**
   * What a growing update inserts, taken from the note's room: from this instance's grant while it
   * lasts (no write); else, when this instance took room for the note before and the note is far
   * from its limit (`free`: what this copy leaves of it), a new grant of GRANT_BYTES more, the last
   * grant's rest given back in the same write; else (near the limit, not strict, the instance's
   * first), exactly the update's bytes. Every grant is taken from the room as
   * one reservation, so the limit holds under any number of instances.
   */
  private async take(
    shortId: string,
    bytes: number,
    room: { init: number; strict: boolean },
    free: number,
  ): Promise<boolean> {
    const now = (this.deps.now ?? Date.now)();
    const grant = this.grants.get(shortId);
    const left = grant && now < grant.until ? grant.left : 0;
    if (left >= bytes) {
      grant!.left -= bytes;
      return true;
    }
    this.grants.delete(shortId);
    // Only an instance that took room for the note before takes a grant: a warm one, likely to take
    // more (an instance that serves one update and ends would leave a grant unused at each update).
    if (grant && room.strict && free >= GRANT_FAR_BYTES) {
      const until = now + GRANT_MS;
      if (await this.deps.docs.reserve(shortId, bytes + GRANT_BYTES - left, { ...room, until })) {
        this.grants.set(shortId, { left: GRANT_BYTES, until });
        for (const oldest of this.grants.keys()) {
          if (this.grants.size <= WARM_DOCS) break;
          this.grants.delete(oldest); // its rest comes back once the grants are long past (calibrate)
        }
        return true;
      }
    }
    if (!(await this.deps.docs.reserve(shortId, bytes - left, room))) return false;
    this.grants.set(shortId, { left: 0, until: 0 }); // seen: its next growing update takes a grant
    for (const oldest of this.grants.keys()) {
      if (this.grants.size <= WARM_DOCS) break;
      this.grants.delete(oldest);
    }
    return true;
  }

  /** To the note's other connections; a gone one is forgotten (not one still connecting). */
  private async relay(from: LiveConnection | { shortId: string; connectionId?: string }, data: string) {
    await this.broadcast(from.shortId, [data], from.connectionId);
  }

  private async broadcast(shortId: string, messages: string[], except?: string): Promise<void> {
    const others = (await this.deps.connections.ofNote(shortId)).filter((c) => c.connectionId !== except);
    await Promise.all(
      others.map(async (c) => {
        for (const m of messages) {
          if (await this.deps.peers.send(c.connectionId, m)) continue;
          // Gone, or still being set up: API Gateway answers 410 until $connect has returned and the
          // upgrade is done. A young connection is left to its own $disconnect (sent for every end).
          if (Date.now() - c.connectedAt >= CONNECTING_MS) await this.deps.connections.remove(c);
          return;
        }
      }),
    );
  }

  private refuse(connectionId: string, code: Parameters<typeof errorFrame>[0], message: string) {
    return this.deps.peers.send(connectionId, errorFrame(code, message)).then(() => undefined);
  }

  /** The note's document, caught up with the store (created from the note's content the first time). */
  private async current(shortId: string): Promise<WarmDoc> {
    const held = this.warm.get(shortId);
    if (held) {
      const recent = await this.deps.docs.recent(shortId);
      if (recent && recent.rev === held.rev) {
        for (const u of recent.updates.filter((u) => !held.applied.has(u.key))) {
          Y.applyUpdate(held.doc, u.update);
          held.applied.add(u.key);
        }
        return held;
      }
    }
    const stored = await this.loadOrCreate(shortId);
    const loaded: WarmDoc = {
      doc: docOf([stored.state, ...stored.updates.map((u) => u.update)]),
      rev: stored.rev,
      applied: new Set(stored.updates.map((u) => u.key)),
    };
    this.warm.set(shortId, loaded);
    // Bounded: the documents of the notes this instance served last.
    for (const oldest of this.warm.keys()) {
      if (this.warm.size <= WARM_DOCS) break;
      this.warm.delete(oldest);
    }
    return loaded;
  }

  private async loadOrCreate(shortId: string, consistent = false): Promise<StoredDoc> {
    const stored = await this.deps.docs.load(shortId, { consistent });
    if (stored) return stored;
    const note = await this.deps.notes.content(shortId);
    if (note === undefined) throw new NotFound('The note does not exist');
    const state = seedUpdate(note.content);
    if (await this.deps.docs.create(shortId, state, note.version))
      return { rev: 0, state, updates: [], restVersion: note.version, settled: 0 };
    const created = await this.deps.docs.load(shortId, { consistent: true });
    if (!created) throw new NotFound('The note does not exist');
    return created;
  }

  /**
   * After live updates were stored (the table's stream): the document's text becomes the note's
   * content (versions, webhooks, search and the page follow the note), then the stored updates are
   * compacted into the state once there are enough. Race-free: the compaction is conditional on the
   * revision it read and deletes only the updates it merged.
   */
  async flush(shortId: string): Promise<void> {
    const stored = await this.deps.docs.load(shortId, { consistent: true });
    if (!stored) return;
    const doc = docOf([stored.state, ...stored.updates.map((u) => u.update)]);
    const editor = stored.updates.at(-1)?.by;
    const text = textOf(doc);
    // Two instances may each have let a change pass the limit that together pass it: the note keeps
    // its last content within the limit (never a failure that would hold the stream back).
    const fits = Buffer.byteLength(text, 'utf8') <= MAX_CONTENT_BYTES;
    // The REST changes the text holds: a REST write the note has and the text lacks is not written over.
    const restVersion = restVersionOf(stored);
    if (editor && fits && !(await this.deps.notes.saveContent(shortId, text, editor, restVersion))) return;
    // The room from this consistent read: what was deleted is given back.
    const settled = stored.settled + stored.updates.reduce((n, u) => n + (u.grown ?? 0), 0);
    await this.deps.docs.calibrate(
      shortId,
      MAX_CONTENT_BYTES - Buffer.byteLength(text, 'utf8') + settled,
      settled,
    );
    if (stored.updates.length >= COMPACT_AFTER_UPDATES)
      await this.deps.docs.compact(
        shortId,
        { rev: stored.rev, keys: stored.updates.map((u) => u.key), restVersion, settled },
        Y.encodeStateAsUpdate(doc),
      );
  }

  /**
   * A REST write changed the note's content from `before` to `after`: the smallest change reaches
   * the document (and so every live client), moved across live edits not yet in the note.
   */
  async restChanged(
    shortId: string,
    before: string,
    after: string,
    editorId: string,
    version: number,
  ): Promise<void> {
    // An eventually consistent read (half the units): the change is made of Yjs items, so one made on
    // a copy that lacks the last update still merges with it.
    const stored = await this.deps.docs.load(shortId);
    if (!stored) return; // no live document yet: it starts from the content
    const doc = docOf([stored.state, ...stored.updates.map((u) => u.update)]);
    const init = MAX_CONTENT_BYTES - Buffer.byteLength(textOf(doc), 'utf8');
    // Even a change that leaves the document as it is stores a piece: its `rest` tells the flush
    // that the document holds this REST write. Pieces are stored in order, the last one marked.
    const change = restChange(doc, before, after);
    const pieces = change ? splitUpdate(change, MAX_SENT_UPDATE_BYTES) : [Y.encodeStateAsUpdate(new Y.Doc())];
    for (const [i, piece] of pieces.entries()) {
      // Counted in the room (the REST limit held it already): a live writer meanwhile sees it taken.
      const grown = insertedBytes(piece);
      if (grown > 0) await this.deps.docs.reserve(shortId, grown, { init, strict: false });
      const rest = i === pieces.length - 1 ? { rest: version } : {};
      await this.deps.docs.append(shortId, piece, editorId, { ...rest, ...(grown > 0 ? { grown } : {}) });
    }
    if (change) await this.broadcast(shortId, pieces.map(updateMessage));
  }

  /** An API token was revoked: the connections its tickets opened are closed (its tickets refuse). */
  async revoked(token: { tokenHash: string; userId: string }): Promise<void> {
    const connections = await this.deps.connections.ofUser(token.userId);
    await Promise.all(
      connections
        .filter((c) => c.tokenHash === token.tokenHash)
        .map((c) => this.shut(c, 'The API token that opened this connection has been revoked')),
    );
  }

  /** Told why, out of every list, closed. */
  private async shut(c: LiveConnection, why: string): Promise<void> {
    await this.refuse(c.connectionId, 'access_changed', why);
    await this.deps.connections.remove(c);
    await this.deps.peers.close(c.connectionId);
  }

  /** The note was purged for good: its connections were closed (recheck), its document goes. */
  async purged(shortId: string): Promise<void> {
    await this.deps.docs.drop(shortId);
  }

  /**
   * The note's permissions changed, it was trashed or deleted, or a user left a team: each affected
   * connection is checked again, closed when it may no longer read, made read-only when it may no
   * longer write.
   */
  async recheck(affected: { shortId?: string; userId?: string }): Promise<void> {
    const connections = affected.shortId
      ? await this.deps.connections.ofNote(affected.shortId)
      : await this.deps.connections.ofUser(affected.userId!);
    await Promise.all(
      connections.map(async (c) => {
        const access = await this.deps.notes.access(c.userId, c.shortId);
        if (!access?.read) await this.shut(c, 'You may no longer read this note');
        else if (c.access === 'write' && !access.write) {
          await this.deps.connections.setAccess(c, 'read');
          await this.refuse(c.connectionId, 'access_changed', 'You may now read this note but not change it');
        }
      }),
    );
  }
}

/** An awareness message's highest clock per client id (its $disconnect removes past them). */
function clocksOf(states: AwarenessState[]): Record<number, number> {
  const clocks: Record<number, number> = {};
  for (const s of states) clocks[s.clientId] = Math.max(clocks[s.clientId] ?? 0, s.clock);
  return clocks;
}

/** The note's version up to which the stored document holds every REST content change. */
const restVersionOf = (stored: StoredDoc): number =>
  Math.max(stored.restVersion, ...stored.updates.map((u) => u.rest ?? 0));

/** Whether the update holds anything the document lacks (new structs or deletions). */
function changesSomething(update: Uint8Array, doc: Y.Doc): boolean {
  const missing = Y.diffUpdate(update, Y.encodeStateVector(doc));
  const { structs, ds } = Y.decodeUpdate(missing);
  return structs.length > 0 || ds.clients.size > 0;
}
