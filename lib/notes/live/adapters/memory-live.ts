// In-memory adapters of the live ports, for the domain's unit tests (the same rules as dynamo-live.ts:
// single-use tickets, conditional compaction that deletes only the merged updates).
import type { LiveAccess, LiveConnection, RateKind, Ticket } from '../model.ts';
import type {
  ConnectionStore,
  DocStore,
  LiveTokens,
  Peers,
  StoredDoc,
  StoredUpdate,
  TicketStore,
} from '../ports.ts';

export class MemoryTickets implements TicketStore {
  private readonly tickets = new Map<string, Ticket>();
  async put(ticket: Ticket): Promise<void> {
    this.tickets.set(ticket.hash, ticket);
  }
  async take(hash: string): Promise<Ticket | undefined> {
    const ticket = this.tickets.get(hash);
    this.tickets.delete(hash);
    return ticket;
  }
}

/** Tokens are valid until revoked here. */
export class MemoryTokens implements LiveTokens {
  readonly revoked = new Set<string>();
  async valid(tokenHash: string): Promise<boolean> {
    return !this.revoked.has(tokenHash);
  }
}

export class MemoryConnections implements ConnectionStore {
  readonly all = new Map<string, LiveConnection>();
  async add(c: LiveConnection): Promise<void> {
    this.all.set(c.connectionId, { ...c });
  }
  async get(connectionId: string): Promise<LiveConnection | undefined> {
    const c = this.all.get(connectionId);
    return c && { ...c };
  }
  private readonly counts = new Map<string, { windowStart: number; count: number }>();
  /** The counting writes (add > 0 or clocks) and reads (add 0) made. */
  readonly countCalls = { writes: 0, reads: 0 };
  async count(
    connectionId: string,
    kind: RateKind,
    windowStart: number,
    clocks?: Record<number, number>,
    add = 1,
  ) {
    const stored = this.all.get(connectionId);
    if (stored && clocks) stored.clocks = { ...stored.clocks, ...clocks };
    const connection = await this.get(connectionId);
    if (!connection) return undefined;
    const key = `${connectionId}#${kind}`;
    const held = this.counts.get(key);
    const count = (held && held.windowStart === windowStart ? held.count : 0) + add;
    if (add > 0 || clocks) {
      this.countCalls.writes += 1;
      this.counts.set(key, { windowStart, count });
    } else this.countCalls.reads += 1;
    return { connection, count };
  }
  async remove(c: LiveConnection): Promise<void> {
    this.all.delete(c.connectionId);
  }
  async close(c: LiveConnection): Promise<void> {
    const held = this.all.get(c.connectionId);
    if (held) held.closed = true;
  }
  private open() {
    return [...this.all.values()].filter((c) => !c.closed);
  }
  async ofNote(shortId: string): Promise<LiveConnection[]> {
    return this.open()
      .filter((c) => c.shortId === shortId)
      .map((c) => ({ ...c }));
  }
  async ofUser(userId: string): Promise<LiveConnection[]> {
    return this.open()
      .filter((c) => c.userId === userId)
      .map((c) => ({ ...c }));
  }
  async setAccess(c: LiveConnection, access: LiveAccess): Promise<void> {
    const held = this.all.get(c.connectionId);
    if (held) held.access = access;
  }
  /** Per note and client id: who holds it. */
  readonly claims = new Map<string, { connectionId: string; userId: string }>();
  async claim(c: LiveConnection, clientIds: number[]): Promise<number[]> {
    const won = clientIds.filter((id) => {
      const key = `${c.shortId}#${id}`;
      const holder = this.claims.get(key);
      if (holder && holder.connectionId !== c.connectionId && holder.userId !== c.userId) return false;
      this.claims.set(key, { connectionId: c.connectionId, userId: c.userId });
      return true;
    });
    const held = this.all.get(c.connectionId);
    if (held) held.clientIds = [...new Set([...(held.clientIds ?? []), ...won])];
    return won;
  }
  async holders(shortId: string, clientIds: number[]): Promise<string[]> {
    return clientIds.flatMap((id) => {
      const holder = this.claims.get(`${shortId}#${id}`);
      return holder ? [holder.connectionId] : [];
    });
  }
  async owned(c: LiveConnection): Promise<number[]> {
    return (c.clientIds ?? []).filter(
      (id) => this.claims.get(`${c.shortId}#${id}`)?.connectionId === c.connectionId,
    );
  }
}

export class MemoryDocs implements DocStore {
  readonly docs = new Map<string, StoredDoc>();
  private seq = 0;
  async load(shortId: string): Promise<StoredDoc | undefined> {
    const d = this.docs.get(shortId);
    return d && { ...d, updates: [...d.updates] };
  }
  async recent(shortId: string) {
    const d = this.docs.get(shortId);
    return d && { rev: d.rev, updates: [...d.updates] };
  }
  async create(shortId: string, state: Uint8Array, restVersion: number): Promise<boolean> {
    if (this.docs.has(shortId)) return false;
    this.docs.set(shortId, { rev: 0, state, updates: [], restVersion, settled: 0 });
    return true;
  }
  async append(
    shortId: string,
    update: Uint8Array,
    by: string,
    marks: { rest?: number; grown?: number } = {},
  ): Promise<void> {
    const d = this.docs.get(shortId);
    if (!d) throw new Error(`no live document for ${shortId}`);
    const key = `U#${String(++this.seq).padStart(8, '0')}`;
    const u: StoredUpdate = { key, update, by, ...marks };
    d.updates.push(u);
  }
  async compact(
    shortId: string,
    from: { rev: number; keys: string[]; restVersion: number; settled: number },
    state: Uint8Array,
  ): Promise<boolean> {
    const d = this.docs.get(shortId);
    if (!d || d.rev !== from.rev) return false;
    const merged = new Set(from.keys);
    const updates = d.updates.filter((u) => !merged.has(u.key));
    const { restVersion, settled } = from;
    this.docs.set(shortId, { rev: d.rev + 1, state, updates, restVersion, settled });
    return true;
  }
  async drop(shortId: string): Promise<void> {
    this.docs.delete(shortId);
    this.rooms.delete(shortId);
  }
  /** Per note: its room, every reservation so far, its grants' latest end (DocStore.reserve, calibrate). */
  readonly rooms = new Map<string, { room: number; reserved: number; grantsUntil?: number }>();
  /** The reservations made (each a write of ROOM). */
  reservations = 0;
  /** The clock calibrate gives grants back by. */
  now: () => number = Date.now;
  async reserve(
    shortId: string,
    bytes: number,
    opts: { init: number; strict: boolean; until?: number },
  ): Promise<boolean> {
    const held = this.rooms.get(shortId) ?? { room: opts.init, reserved: 0 };
    if (opts.strict && held.room < bytes) return false;
    this.reservations += 1;
    this.rooms.set(shortId, {
      room: held.room - bytes,
      reserved: held.reserved + bytes,
      ...(opts.until !== undefined
        ? { grantsUntil: opts.until }
        : held.grantsUntil
          ? { grantsUntil: held.grantsUntil }
          : {}),
    });
    return true;
  }
  async calibrate(shortId: string, base: number, held?: number): Promise<void> {
    const kept = this.rooms.get(shortId);
    const reserved = kept?.reserved ?? 0;
    const until = kept?.grantsUntil;
    if (held !== undefined && until !== undefined && until + 60_000 < this.now()) {
      this.rooms.set(shortId, { room: base - held, reserved: held });
      return;
    }
    this.rooms.set(shortId, { room: base - reserved, reserved, ...(until ? { grantsUntil: until } : {}) });
  }
}

/** The far ends of the connections: what each was sent, and which are closed. */
export class RecordingPeers implements Peers {
  readonly sent = new Map<string, string[]>();
  readonly closed = new Set<string>();
  async send(connectionId: string, data: string): Promise<boolean> {
    if (this.closed.has(connectionId)) return false;
    this.sent.set(connectionId, [...(this.sent.get(connectionId) ?? []), data]);
    return true;
  }
  async close(connectionId: string): Promise<void> {
    this.closed.add(connectionId);
  }
  /** What was sent to the connection since the last call (and forgets it). */
  take(connectionId: string): string[] {
    const out = this.sent.get(connectionId) ?? [];
    this.sent.delete(connectionId);
    return out;
  }
}
