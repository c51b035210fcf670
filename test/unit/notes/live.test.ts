// Live editing's domain (lib/notes/live) over in-memory adapters: tickets, connections, the sync
// protocol, access, the REST bridge, compaction. The same paths over DynamoDB, S3 and the runner are
// in test/notes/live.test.ts.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import * as decoding from 'lib0/decoding';
import { describe, expect, it } from 'vitest';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import { identityKeys, liveKeys } from '../../../lib/data/keys.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import { liveChangesOf } from '../../../lib/notes/live/adapters/stream-live.ts';
import { MAX_CONTENT_BYTES } from '../../../lib/notes/kernel/model.ts';
import {
  MemoryConnections,
  MemoryDocs,
  MemoryTickets,
  MemoryTokens,
  RecordingPeers,
} from '../../../lib/notes/live/adapters/memory-live.ts';
import { docOf, restChange, seedUpdate, splitUpdate, textOf } from '../../../lib/notes/live/document.ts';
import {
  COMPACT_AFTER_UPDATES,
  MAX_CLIENT_MESSAGE_BYTES,
  RATE_LIMITS,
} from '../../../lib/notes/live/model.ts';
import { liveNotesOf, restToLive } from '../../../lib/notes/live/notes-bridge.ts';
import { LiveDoor } from '../../../lib/notes/live/door.ts';
import { readMessage } from '../../../lib/notes/live/protocol.ts';
import { LiveService } from '../../../lib/notes/live/service.ts';
import { notesWorld } from './fixture.ts';

async function liveWorld() {
  let live: LiveService | undefined;
  const world = await notesWorld({ contentListener: restToLive(() => live!) });
  const peers = new RecordingPeers();
  const connections = new MemoryConnections();
  const docs = new MemoryDocs();
  live = new LiveService({
    connections,
    docs,
    peers,
    notes: liveNotesOf(() => world.notes),
    now: () => world.clock.now(),
  });
  const tokens = new MemoryTokens();
  const door = new LiveDoor({
    tickets: new MemoryTickets(),
    connections,
    tokens,
    notes: liveNotesOf(() => world.notes),
    clock: world.clock,
    ids: sequentialIds(7000),
    url: () => 'ws://localhost:3000/_live',
    peers,
  });
  /** A client: its own Y.Doc, connected with a fresh ticket, synced as y-websocket does. */
  let n = 0;
  const join = async (userId: string, noteId: string, tokenHash = `token-of-${userId}`) => {
    const opening = await door.open({ userId, tokenHash }, noteId);
    const connectionId = `c${++n}`;
    await door.connect(connectionId, new URL(opening.url).searchParams.get('ticket')!);
    const doc = new Y.Doc();
    const client = {
      connectionId,
      doc,
      access: opening.access,
      errors: [] as { code: string }[],
      sending: Promise.resolve(),
    };
    // Messages leave in order, as over one WebSocket.
    const send = (msg: string) => {
      client.sending = client.sending.then(() => live!.receive(connectionId, msg));
      return client.sending;
    };
    doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin !== 'server') void send(b64((e) => sync.writeUpdate(e, u)));
    });
    await send(b64((e) => sync.writeSyncStep1(e, doc)));
    await deliver(client);
    return client;
  };
  type Client = Awaited<ReturnType<typeof join>>;
  /** Applies what the server sent to the client (answering its step 1 as y-websocket does). */
  const deliver = async (client: Client) => {
    await client.sending;
    for (const frame of peers.take(client.connectionId)) {
      if (frame.startsWith('{')) {
        client.errors.push(JSON.parse(frame).error);
        continue;
      }
      const decoder = decoding.createDecoder(Buffer.from(frame, 'base64'));
      if (decoding.readVarUint(decoder) !== 0) continue;
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, 0);
      sync.readSyncMessage(decoder, reply, client.doc, 'server');
      if (encoding.length(reply) > 1)
        await live!.receive(
          client.connectionId,
          Buffer.from(encoding.toUint8Array(reply)).toString('base64'),
        );
    }
  };
  return { ...world, live, door, peers, connections, docs, tokens, join, deliver };
}

const b64 = (write: (e: encoding.Encoder) => void) => {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  write(e);
  return Buffer.from(encoding.toUint8Array(e)).toString('base64');
};
const text = (doc: Y.Doc) => doc.getText('content').toString();
const caller = (userId: string) => ({ userId, tokenHash: `token-of-${userId}` });

describe('live editing: the domain', () => {
  it('a ticket is single-use, expires after 60 s and answers the access the note gives', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'x', readPermission: 'signed_in' });
    const mine = await w.door.open(caller(w.owner), note.note.id);
    expect(mine.access).toBe('write');
    expect(mine.url).toMatch(/^ws:\/\/localhost:3000\/_live\?ticket=[\w-]{43}$/);
    expect((await w.door.open(caller(w.other), note.note.shortId)).access).toBe('read');
    const ticket = new URL(mine.url).searchParams.get('ticket')!;
    await w.door.connect('a', ticket);
    await expect(w.door.connect('b', ticket)).rejects.toThrow(/used or expired/);
    const late = new URL((await w.door.open(caller(w.owner), note.note.id)).url).searchParams.get('ticket')!;
    w.clock.advance(60_000);
    await expect(w.door.connect('c', late)).rejects.toThrow(/used or expired/);
    await expect(w.door.connect('d', undefined)).rejects.toThrow(/missing/);
  });

  it('a note the caller may not read has no live URL (404 as GetNote)', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'secret' });
    await expect(w.door.open(caller(w.other), note.note.id)).rejects.toThrow(/does not exist/);
  });

  it('two clients converge; the first sync holds the note content; updates and awareness are relayed', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: '# Title\nhello' });
    const a = await w.join(w.owner, note.note.id);
    const b = await w.join(w.owner, note.note.id);
    expect(text(a.doc)).toBe('# Title\nhello');
    a.doc.getText('content').insert(a.doc.getText('content').length, ' world');
    b.doc.getText('content').insert(0, '> ');
    await w.deliver(a);
    await w.deliver(b);
    await w.deliver(a);
    expect(text(a.doc)).toBe('> # Title\nhello world');
    expect(text(b.doc)).toBe(text(a.doc));
    const awareness = new awarenessProtocol.Awareness(a.doc);
    awareness.setLocalState({ user: { name: 'A' }, cursor: 3 });
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [a.doc.clientID]));
    await w.live.receive(a.connectionId, Buffer.from(encoding.toUint8Array(e)).toString('base64'));
    expect(w.peers.take(b.connectionId)).toHaveLength(1);
    expect(w.peers.take(a.connectionId)).toHaveLength(0);
  });

  it("a read connection's updates are never applied, and it hears why", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'abc', readPermission: 'signed_in' });
    const reader = await w.join(w.other, note.note.id);
    expect(reader.access).toBe('read');
    reader.doc.getText('content').insert(0, 'XX');
    await w.deliver(reader);
    expect(reader.errors.map((e) => e.code)).toEqual(['read_only']);
    const w2 = await w.join(w.owner, note.note.id);
    expect(text(w2.doc)).toBe('abc');
    expect((await w.docs.load(note.note.shortId))!.updates).toHaveLength(0);
  });

  it('a message over 32 KB or not a y-protocols message is refused with a readable error; the connection goes on', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: '' });
    const a = await w.join(w.owner, note.note.id);
    await w.live.receive(a.connectionId, 'A'.repeat(MAX_CLIENT_MESSAGE_BYTES + 4));
    await w.live.receive(a.connectionId, 'not base64!');
    await w.live.receive(a.connectionId, Buffer.from([9, 9]).toString('base64'));
    await w.deliver(a);
    expect(a.errors.map((e) => e.code)).toEqual(['message_too_large', 'bad_message', 'bad_message']);
    a.doc.getText('content').insert(0, 'still here');
    await w.deliver(a);
    const stored = (await w.docs.load(note.note.shortId))!;
    expect(text(docOf([stored.state, ...stored.updates.map((u) => u.update)]))).toBe('still here');
  });

  it("an edit past the REST content limit is refused and not stored; the note's text stays", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'start' });
    const a = await w.join(w.owner, note.note.id);
    const big = 'x'.repeat(20_000);
    for (let i = 0; i * big.length < MAX_CONTENT_BYTES; i += 1) a.doc.getText('content').insert(0, big);
    await w.deliver(a);
    expect(a.errors.map((e) => e.code)).toEqual(['content_too_large']);
    await w.live.flush(note.note.shortId);
    const stored = (await w.notes.getNote(w.owner, note.note.id)).content;
    expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
    expect(stored.endsWith('start')).toBe(true);
  });

  it('a flush writes the live text to the note (its editor, title and version follow)', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'old' });
    const a = await w.join(w.owner, note.note.id);
    a.doc.getText('content').insert(0, '# Live\n');
    await w.deliver(a);
    await w.live.flush(note.note.shortId);
    const read = await w.notes.getNote(w.owner, note.note.id);
    expect(read.content).toBe('# Live\nold');
    expect(read.note.title).toBe('Live');
    expect(read.note.version).toBe(note.note.version + 1);
  });

  it('a flush computed before a REST change reached the document does not write over it', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'one two' });
    const shortId = note.note.shortId;
    const a = await w.join(w.owner, note.note.id);
    a.doc.getText('content').insert(0, 'live ');
    await w.deliver(a);
    // The stream's flush read the document, then a REST PATCH answered 200, then the flush writes.
    const before = (await w.docs.load(shortId))!;
    await w.notes.updateNote(w.owner, note.note.id, { content: 'one 2' });
    const load = w.docs.load.bind(w.docs);
    w.docs.load = async () => before;
    await w.live.flush(shortId);
    w.docs.load = load;
    expect((await w.notes.getNote(w.owner, note.note.id)).content).toBe('one 2');
    // The REST change's own stored piece sets off the next flush: both texts, in that order.
    await w.live.flush(shortId);
    expect((await w.notes.getNote(w.owner, note.note.id)).content).toBe('live one 2');
  });

  it('a REST update reaches live clients as the smallest change, merged with unflushed live edits', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'alpha beta gamma' });
    const a = await w.join(w.owner, note.note.id);
    const b = await w.join(w.owner, note.note.id);
    const textA = a.doc.getText('content');
    // A's cursor sits in "gamma": a relative position survives the REST change of "beta".
    const cursor = Y.createRelativePositionFromTypeIndex(textA, 13);
    textA.insert(0, '>> '); // live, not yet flushed into the note
    await w.deliver(b);
    await w.notes.updateNote(w.owner, note.note.id, { content: 'alpha BETA gamma!' });
    await w.deliver(a);
    await w.deliver(b);
    expect(text(a.doc)).toBe('>> alpha BETA gamma!');
    expect(text(b.doc)).toBe(text(a.doc));
    expect(Y.createAbsolutePositionFromRelativePosition(cursor, a.doc)?.index).toBe(16);
    await w.live.flush(note.note.shortId);
    expect((await w.notes.getNote(w.owner, note.note.id)).content).toBe('>> alpha BETA gamma!');
  });

  it('compaction merges the stored updates into the state and deletes only those it merged', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: '' });
    const a = await w.join(w.owner, note.note.id);
    for (let i = 0; i < COMPACT_AFTER_UPDATES; i += 1) a.doc.getText('content').insert(i, String(i % 10));
    await w.deliver(a);
    const before = (await w.docs.load(note.note.shortId))!;
    expect(before.updates).toHaveLength(COMPACT_AFTER_UPDATES);
    // A compaction that read an older revision loses and changes nothing.
    expect(
      await w.docs.compact(
        note.note.shortId,
        { rev: before.rev + 1, keys: [], restVersion: 0, settled: 0 },
        new Uint8Array(),
      ),
    ).toBe(false);
    await w.live.flush(note.note.shortId);
    const after = (await w.docs.load(note.note.shortId))!;
    expect(after.rev).toBe(before.rev + 1);
    expect(after.updates).toHaveLength(0);
    expect(textOf(docOf([after.state]))).toBe(text(a.doc));
    // A client joining later gets it all.
    const b = await w.join(w.owner, note.note.id);
    expect(text(b.doc)).toBe(text(a.doc));
  });

  it("one note's connection touches no other note", async () => {
    const w = await liveWorld();
    const first = await w.notes.createNote(w.owner, { content: 'first' });
    const second = await w.notes.createNote(w.owner, { content: 'second' });
    const a = await w.join(w.owner, first.note.id);
    const b = await w.join(w.owner, second.note.id);
    a.doc.getText('content').insert(0, 'A: ');
    await w.deliver(a);
    await w.deliver(b);
    expect(text(b.doc)).toBe('second');
    await w.live.flush(first.note.shortId);
    await w.live.flush(second.note.shortId);
    expect((await w.notes.getNote(w.owner, second.note.id)).content).toBe('second');
    expect((await w.notes.getNote(w.owner, first.note.id)).content).toBe('A: first');
  });

  it('a permission change downgrades or closes connections; a deleted note closes all', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, {
      content: 'x',
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    });
    const other = await w.join(w.other, note.note.id);
    const owner = await w.join(w.owner, note.note.id);
    expect(other.access).toBe('write');
    await w.notes.updateNote(w.owner, note.note.id, { writePermission: 'owner' });
    await w.live.recheck({ shortId: note.note.shortId });
    await w.deliver(other);
    expect(other.errors.map((e) => e.code)).toEqual(['access_changed']);
    other.doc.getText('content').insert(0, 'no');
    await w.deliver(other);
    expect(other.errors.at(-1)?.code).toBe('read_only');
    await w.notes.updateNote(w.owner, note.note.id, { readPermission: 'owner' });
    await w.live.recheck({ shortId: note.note.shortId });
    expect(w.peers.closed.has(other.connectionId)).toBe(true);
    expect(w.peers.closed.has(owner.connectionId)).toBe(false);
    await w.notes.deleteNote(w.owner, note.note.id);
    await w.live.recheck({ shortId: note.note.shortId });
    expect(w.peers.closed.has(owner.connectionId)).toBe(true);
    expect(w.connections.all.size).toBe(0);
  });

  it("an awareness answer goes to its targets' connections alone, and only the sender's own states", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'x', readPermission: 'signed_in' });
    const a = await w.join(w.owner, note.note.id);
    const b = await w.join(w.other, note.note.id);
    const c = await w.join(w.other, note.note.id, 'other-token');
    const update = (states: [number, object | null][]) => {
      const u = encoding.createEncoder();
      encoding.writeVarUint(u, states.length);
      for (const [id, state] of states) {
        encoding.writeVarUint(u, id);
        encoding.writeVarUint(u, 1);
        encoding.writeVarString(u, JSON.stringify(state));
      }
      return encoding.toUint8Array(u);
    };
    const frame = (type: number, states: [number, object | null][], targets?: number[]) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, type);
      if (targets) {
        encoding.writeVarUint(e, targets.length);
        for (const t of targets) encoding.writeVarUint(e, t);
      }
      encoding.writeVarUint8Array(e, update(states));
      return Buffer.from(encoding.toUint8Array(e)).toString('base64');
    };
    const heard = (x: { connectionId: string }) =>
      w.peers.take(x.connectionId).flatMap((f) => {
        const m = readMessage(f);
        return m?.kind === 'answer'
          ? m.states.map((s) => `${m.targets.join(',')}>${s.clientId}:${s.json}`)
          : [];
      });
    const [ida, idb, idc] = [a.doc.clientID, b.doc.clientID, c.doc.clientID];
    await w.live.receive(a.connectionId, frame(1, [[ida, { n: 'A' }]]));
    await w.live.receive(b.connectionId, frame(1, [[idb, { n: 'B' }]]));
    w.peers.take(a.connectionId);
    w.peers.take(b.connectionId);
    w.peers.take(c.connectionId);
    // C joins and announces; B answers C alone (with A's state smuggled in: left out).
    await w.live.receive(c.connectionId, frame(1, [[idc, { n: 'C' }]]));
    await w.live.receive(
      b.connectionId,
      frame(
        4,
        [
          [idb, { n: 'B' }],
          [ida, { n: 'Mallory' }],
        ],
        [idc],
      ),
    );
    expect(heard(c)).toEqual([`${idc}>${idb}:{"n":"B"}`]);
    expect(heard(a)).toEqual([]);
    expect(heard(b)).toEqual([]);
    // An answer to no one's id, or to the sender's own, goes nowhere; a malformed one is refused.
    await w.live.receive(b.connectionId, frame(4, [[idb, { n: 'B' }]], [424242, idb]));
    expect([heard(a), heard(b), heard(c)]).toEqual([[], [], []]);
    await w.live.receive(b.connectionId, frame(4, [[idb, { n: 'B' }]], []));
    expect(w.peers.take(b.connectionId).join()).toMatch(/bad_message/);
  });

  it("awareness under another connection's client id is not relayed: no spoofed name, no removed cursor", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'x', readPermission: 'signed_in' });
    const owner = await w.join(w.owner, note.note.id);
    const reader = await w.join(w.other, note.note.id);
    const watcher = await w.join(w.other, note.note.id, 'other-token');
    /** An awareness frame of `clientId`'s state (null: removed), as y-protocols encodes it. */
    const aware = (clientId: number, state: object | null, clock = 1) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1);
      const u = encoding.createEncoder();
      encoding.writeVarUint(u, 1);
      encoding.writeVarUint(u, clientId);
      encoding.writeVarUint(u, clock);
      encoding.writeVarString(u, JSON.stringify(state));
      encoding.writeVarUint8Array(e, encoding.toUint8Array(u));
      return Buffer.from(encoding.toUint8Array(e)).toString('base64');
    };
    const heard = (c: { connectionId: string }) =>
      w.peers.take(c.connectionId).flatMap((f) => {
        const m = readMessage(f);
        return m?.kind === 'awareness' ? m.states.map((s) => `${s.clientId}:${s.json}`) : [];
      });
    // The owner typed (its client id is its own from its first update on), then announced itself.
    owner.doc.getText('content').insert(0, 'typed ');
    await w.deliver(owner);
    await w.live.receive(owner.connectionId, aware(owner.doc.clientID, { user: { name: 'Owner' } }));
    expect(heard(watcher)).toEqual([`${owner.doc.clientID}:{"user":{"name":"Owner"}}`]);
    heard(reader);
    // The reader sends the owner's id with another name, then a removal of it: neither is relayed.
    await w.live.receive(reader.connectionId, aware(owner.doc.clientID, { user: { name: 'Mallory' } }, 5));
    await w.live.receive(reader.connectionId, aware(owner.doc.clientID, null, 6));
    expect(heard(watcher)).toEqual([]);
    expect(heard(owner)).toEqual([]);
    // Its own id is its own; a state of both ids relays only its own.
    await w.live.receive(reader.connectionId, aware(reader.doc.clientID, { user: { name: 'Reader' } }));
    expect(heard(watcher)).toEqual([`${reader.doc.clientID}:{"user":{"name":"Reader"}}`]);
    expect(heard(owner)).toEqual([`${reader.doc.clientID}:{"user":{"name":"Reader"}}`]);
    // A writer's id is claimed by its first update, before anyone hears it announced.
    const second = await w.join(w.owner, note.note.id);
    second.doc.getText('content').insert(0, 'more ');
    await w.deliver(second);
    await w.live.receive(reader.connectionId, aware(second.doc.clientID, { user: { name: 'Mallory' } }));
    expect(heard(watcher)).toEqual([]);
    // The owner reconnecting (the same Y.Doc, so the same client id) keeps its cursor.
    const again = await w.join(w.owner, note.note.id);
    await w.live.receive(again.connectionId, aware(owner.doc.clientID, { user: { name: 'Owner' } }, 9));
    expect(heard(watcher)).toEqual([`${owner.doc.clientID}:{"user":{"name":"Owner"}}`]);
  });

  it("a connection's $disconnect removes the cursors of the ids it owns from the others, not one taken over", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'x', readPermission: 'signed_in' });
    const gone = await w.join(w.owner, note.note.id);
    const watcher = await w.join(w.other, note.note.id);
    const quiet = await w.join(w.other, note.note.id, 'other-token');
    const frame = (states: [number, number, object | null][]) => {
      const u = encoding.createEncoder();
      encoding.writeVarUint(u, states.length);
      for (const [id, clock, state] of states) {
        encoding.writeVarUint(u, id);
        encoding.writeVarUint(u, clock);
        encoding.writeVarString(u, JSON.stringify(state));
      }
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint8Array(e, encoding.toUint8Array(u));
      return Buffer.from(encoding.toUint8Array(e)).toString('base64');
    };
    // The watcher's view of the others, as y-protocols keeps it (its own id is not among them).
    const view = new awarenessProtocol.Awareness(new Y.Doc());
    const hear = () => {
      for (const f of w.peers.take(watcher.connectionId)) {
        const d = decoding.createDecoder(Buffer.from(f, 'base64'));
        if (decoding.readVarUint(d) === 1)
          awarenessProtocol.applyAwarenessUpdate(view, decoding.readVarUint8Array(d), 'server');
      }
      return [...view.getStates().keys()].filter((id) => id !== view.clientID).sort();
    };
    const mine = gone.doc.clientID;
    const other = mine + 1; // a second id of the same person, later taken over by their next connection
    await w.live.receive(
      gone.connectionId,
      frame([
        [mine, 3, { user: { name: 'Owner' } }],
        [other, 1, { tab: 2 }],
      ]),
    );
    await w.live.receive(gone.connectionId, frame([[mine, 7, { cursor: 1 }]]));
    expect(hear()).toEqual([mine, other].sort());
    const next = await w.join(w.owner, note.note.id);
    await w.live.receive(next.connectionId, frame([[other, 2, { tab: 2 }]]));
    expect(hear()).toEqual([mine, other].sort());
    // A connection that never announced an id ends: nothing is sent.
    await w.door.disconnect(quiet.connectionId);
    expect(w.peers.take(watcher.connectionId)).toEqual([]);
    // The first connection ends without a goodbye: its own id's state goes (at the clock after its
    // last), the id its person's next connection took over stays; it is sent to every other connection.
    for (const c of [gone, watcher, next]) w.peers.take(c.connectionId);
    await w.door.disconnect(gone.connectionId);
    const toNext = w.peers.take(next.connectionId).map((f) => readMessage(f));
    expect(toNext).toEqual([{ kind: 'awareness', states: [{ clientId: mine, clock: 8, json: 'null' }] }]);
    expect(hear()).toEqual([other]);
    expect(w.peers.take(gone.connectionId)).toEqual([]);
  });

  it('a flood is bounded per connection: sync step 1, awareness and updates past their limits are dropped, then closed', async () => {
    const w = await liveWorld();
    const content = 'a line of the note that a flood asks for again and again\n'.repeat(2_000);
    const note = await w.notes.createNote(w.owner, { content, readPermission: 'signed_in' });
    const reader = await w.join(w.other, note.note.id);
    const writer = await w.join(w.owner, note.note.id);
    const watcher = await w.join(w.owner, note.note.id);
    for (const c of [reader, writer, watcher]) w.peers.take(c.connectionId);
    const errorsOf = (frames: string[]) =>
      frames.filter((f) => f.startsWith('{')).map((f) => JSON.parse(f).error.code);
    const bytesOf = (frames: string[]) => frames.reduce((n, f) => n + f.length, 0);
    // 100 sync step 1 (an empty state vector: the whole document each) from the reader.
    const step1 = b64((e) => sync.writeSyncStep1(e, new Y.Doc()));
    await w.live.receive(reader.connectionId, step1);
    const one = bytesOf(w.peers.take(reader.connectionId));
    expect(one).toBeGreaterThan(content.length);
    for (let i = 1; i < 100; i += 1) await w.live.receive(reader.connectionId, step1);
    const answered = w.peers.take(reader.connectionId);
    expect(errorsOf(answered)).toEqual(['rate_limited', 'rate_limited']);
    expect(one + bytesOf(answered)).toBeLessThan(one * (RATE_LIMITS.step1.limit + 1));
    expect(w.peers.closed.has(reader.connectionId)).toBe(true);
    // 2,000 tiny awareness frames from the writer: at most the limit reach the watcher.
    const awareness = new awarenessProtocol.Awareness(writer.doc);
    const frames: string[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      awareness.setLocalStateField('cursor', i);
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint8Array(
        e,
        awarenessProtocol.encodeAwarenessUpdate(awareness, [writer.doc.clientID]),
      );
      frames.push(Buffer.from(encoding.toUint8Array(e)).toString('base64'));
    }
    awareness.destroy();
    for (const f of frames) await w.live.receive(writer.connectionId, f);
    expect(w.peers.take(watcher.connectionId)).toHaveLength(RATE_LIMITS.awareness.limit);
    expect(w.peers.closed.has(writer.connectionId)).toBe(true);
    // Updates: a third connection types past the limit in one second; the next second it may again.
    const typist = await w.join(w.owner, note.note.id);
    const edits = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const d = new Y.Doc();
        d.clientID = 9_000 + i + n;
        d.getText('content').insert(0, 'x');
        return b64((e) => sync.writeUpdate(e, Y.encodeStateAsUpdate(d)));
      });
    for (const u of edits(RATE_LIMITS.update.limit + 5)) await w.live.receive(typist.connectionId, u);
    expect(errorsOf(w.peers.take(typist.connectionId))).toEqual(['rate_limited']);
    w.clock.advance(RATE_LIMITS.update.windowSeconds * 1000);
    for (const u of edits(3)) await w.live.receive(typist.connectionId, u);
    expect(errorsOf(w.peers.take(typist.connectionId))).toEqual([]);
    expect(w.peers.closed.has(typist.connectionId)).toBe(false);
    // Its join's step 2 counted as one of the window's messages: limit - 1 edits, then 3.
    const stored = (await w.docs.load(note.note.shortId))!;
    expect(stored.updates).toHaveLength(RATE_LIMITS.update.limit - 1 + 3);
  });

  it('a window is counted in memory and written every few messages; another instance counts on from it', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: '# Counted\n' });
    const typist = await w.join(w.owner, note.note.id);
    w.peers.take(typist.connectionId);
    const edits = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => {
        const d = new Y.Doc();
        d.clientID = from + i;
        d.getText('content').insert(0, 'x');
        return b64((e) => sync.writeUpdate(e, Y.encodeStateAsUpdate(d)));
      });
    w.clock.advance(RATE_LIMITS.update.windowSeconds * 1000); // a window of its own
    const { writes } = w.connections.countCalls;
    for (const u of edits(20, 5_000)) await w.live.receive(typist.connectionId, u);
    // 20 messages: two counting writes (8 each), each message a read of the connection otherwise.
    expect(w.connections.countCalls.writes - writes).toBe(2);
    expect(w.peers.take(typist.connectionId).filter((f) => f.startsWith('{'))).toEqual([]);
    // Another instance (or this one restarted) starts from the 16 stored: 44 more pass, then the limit.
    const other = new LiveService({
      connections: w.connections,
      docs: w.docs,
      peers: w.peers,
      notes: liveNotesOf(() => w.notes),
      now: () => w.clock.now(),
    });
    for (const u of edits(50, 6_000)) await other.receive(typist.connectionId, u);
    const errors = w.peers.take(typist.connectionId).filter((f) => f.startsWith('{'));
    expect(errors.map((f) => JSON.parse(f).error.code)).toEqual(['rate_limited']);
    const stored = (await w.docs.load(note.note.shortId))!;
    expect(stored.updates).toHaveLength(20 + RATE_LIMITS.update.limit - 16);
  });

  it("a revoked token's tickets refuse and its connections close; the user's other token keeps its own", async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'x' });
    const byLaptop = await w.join(w.owner, note.note.id, 'laptop');
    const byPhone = await w.join(w.owner, note.note.id, 'phone');
    const early = await w.door.open({ userId: w.owner, tokenHash: 'laptop' }, note.note.id);
    w.tokens.revoked.add('laptop');
    await w.live.revoked({ tokenHash: 'laptop', userId: w.owner });
    await w.deliver(byLaptop);
    expect(byLaptop.errors.map((e) => e.code)).toEqual(['access_changed']);
    expect(w.peers.closed.has(byLaptop.connectionId)).toBe(true);
    expect(w.peers.closed.has(byPhone.connectionId)).toBe(false);
    const ticket = new URL(early.url).searchParams.get('ticket')!;
    await expect(w.door.connect('late', ticket)).rejects.toThrow(/revoked/);
    expect([...w.connections.all.keys()]).toEqual([byPhone.connectionId]);
  });
});

describe('live editing: the document', () => {
  it('a large state is cut into updates under the limit that rebuild it in any order', () => {
    const content = Array.from({ length: 40_000 }, (_, i) => `line ${i} é😀\n`)
      .join('')
      .slice(0, 290_000);
    const doc = docOf([seedUpdate(content)]);
    doc.getText('content').delete(1000, 5000);
    const full = Y.encodeStateAsUpdate(doc);
    const pieces = splitUpdate(full, 64 * 1024);
    expect(pieces.length).toBeGreaterThan(4);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(64 * 1024 + 64);
    expect(textOf(docOf([...pieces].reverse()))).toBe(textOf(doc));
  });

  it('a REST change touches only what changed', () => {
    const doc = docOf([seedUpdate('one two three')]);
    const update = restChange(doc, 'one two three', 'one 2 three')!;
    expect(update.length).toBeLessThan(40);
    expect(textOf(doc)).toBe('one 2 three');
    expect(restChange(doc, 'one 2 three', 'one 2 three')).toBeUndefined();
  });
});

describe('live editing: what the stream asks', () => {
  const record = (
    eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
    keys: { PK: string; SK: string },
    images: { old?: object; new?: object } = {},
  ) =>
    ({
      eventName,
      dynamodb: {
        Keys: marshall(keys),
        ...(images.old ? { OldImage: marshall({ ...keys, ...images.old }) } : {}),
        ...(images.new ? { NewImage: marshall({ ...keys, ...images.new }) } : {}),
      },
    }) as unknown as DynamoDBRecord;

  it('stored updates flush their note; access changes, team removals and revoked tokens recheck; other changes do not', () => {
    const meta = { PK: 'NOTE#abcdefghij', SK: 'NOTE#META' };
    const note = { readPermission: 'owner', writePermission: 'owner', ownerId: 'u1', teamPath: null };
    const changes = liveChangesOf([
      record('INSERT', liveKeys.update('shortid123', 1, 'r'), { new: { type: 'live-update' } }),
      record('MODIFY', meta, { old: { ...note, version: 1 }, new: { ...note, version: 2 } }),
      record(
        'MODIFY',
        { PK: 'NOTE#klmnopqrst', SK: 'NOTE#META' },
        { old: note, new: { ...note, writePermission: 'signed_in', readPermission: 'signed_in' } },
      ),
      record('REMOVE', { PK: 'NOTE#uvwxyzabcd', SK: 'NOTE#META' }, { old: note }),
      record('REMOVE', identityKeys.membershipOfTeam('team-a', 'u9')),
      record('REMOVE', identityKeys.token('abc123'), { old: { type: 'token', userId: 'u7' } }),
      record('MODIFY', identityKeys.token('def456'), { old: { userId: 'u8' }, new: { userId: 'u8' } }),
    ]);
    expect([...changes.revokedTokens]).toEqual([['abc123', 'u7']]);
    expect([...changes.flush]).toEqual(['shortid123']);
    expect([...changes.recheckNotes].sort()).toEqual(['klmnopqrst', 'uvwxyzabcd']);
    expect([...changes.recheckUsers]).toEqual(['u9']);
    expect([...changes.purged]).toEqual(['uvwxyzabcd']);
  });
});

describe('live editing: what a document may hold', () => {
  const updateFrame = (u: Uint8Array) => b64((e) => sync.writeUpdate(e, u));
  /** An update of deletions only: `count` random clients that never wrote anything. */
  const deletesOfStrangers = (count: number, seed: number) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0); // no structs
    encoding.writeVarUint(e, count);
    for (let i = 0; i < count; i += 1) {
      encoding.writeVarUint(e, 1_000_000 + seed * count + i);
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint(e, 1);
    }
    return encoding.toUint8Array(e);
  };
  /** One character from each of `count` client ids (each its own editing session), merged. */
  const manyClients = (count: number) =>
    Y.mergeUpdates(
      Array.from({ length: count }, (_, i) => {
        const d = new Y.Doc();
        d.clientID = 50_000 + i;
        d.getText('content').insert(0, String(i % 10));
        return Y.encodeStateAsUpdate(d);
      }),
    );
  /** Every frame the server sends from now on (a joining client's sync answer). */
  const recordSends = (w: Awaited<ReturnType<typeof liveWorld>>) => {
    const frames: string[] = [];
    const send = w.peers.send.bind(w.peers);
    w.peers.send = (connectionId, data) => {
      frames.push(data);
      return send(connectionId, data);
    };
    return frames;
  };

  it('nested types, other root types and embeds are refused (bad_message), not stored; the note loads', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'keep' });
    const a = await w.join(w.owner, note.note.id);
    const stored = (await w.docs.load(note.note.shortId))!.updates.length;
    // 1,900 nested Y.Maps in one update, as a hostile writer would send them.
    const evil = new Y.Doc();
    let map = evil.getMap('m');
    evil.transact(() => {
      for (let i = 0; i < 1900; i += 1) {
        const next = new Y.Map<unknown>();
        map.set('k', next);
        map = next;
      }
    });
    const array = new Y.Doc();
    array.getArray('a').push(['x'.repeat(20_000)]);
    const embed = new Y.Doc();
    embed.getText('content').insertEmbed(0, { big: 'x'.repeat(100) });
    for (const u of [
      Y.encodeStateAsUpdate(evil),
      Y.encodeStateAsUpdate(array),
      Y.encodeStateAsUpdate(embed),
    ]) {
      for (const piece of splitUpdate(u, 20_000)) await w.live.receive(a.connectionId, updateFrame(piece));
    }
    await w.deliver(a);
    expect(a.errors.length).toBeGreaterThanOrEqual(3);
    expect(new Set(a.errors.map((e) => e.code))).toEqual(new Set(['bad_message']));
    expect((await w.docs.load(note.note.shortId))!.updates.length).toBe(stored);
    const b = await w.join(w.owner, note.note.id);
    expect(text(b.doc)).toBe('keep');
  });

  it('a stored update that breaks Yjs never throws past the load: the rest of the document loads', () => {
    const good = seedUpdate('still here');
    const broken = new Uint8Array([1, 1, 200, 1, 0, 255, 255, 255, 255, 255, 255]);
    expect(textOf(docOf([good, broken]))).toBe('still here');
  });

  it('deletions of clients the note never saw are bounded; a new client syncs in frames under 128 KB', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'text' });
    const a = await w.join(w.owner, note.note.id);
    for (let i = 0; i < 6; i += 1)
      await w.live.receive(a.connectionId, updateFrame(deletesOfStrangers(3000, i)));
    await w.deliver(a);
    expect(a.errors.map((e) => e.code)).toContain('document_too_large');
    const frames = recordSends(w);
    const b = await w.join(w.owner, note.note.id);
    expect(text(b.doc)).toBe('text');
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(f.length).toBeLessThanOrEqual(128 * 1024);
  });

  it('a delete set of any size is cut into pieces under the limit', () => {
    const doc = docOf([manyClients(3000)]);
    const t = doc.getText('content');
    for (let i = 0; i < 1500; i += 1) t.delete(i, 1);
    const full = Y.encodeStateAsUpdate(doc);
    const pieces = splitUpdate(full, 8 * 1024);
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(8 * 1024 + 64);
    // The deletions first, then the characters: they still meet.
    const rebuilt = docOf([...pieces.slice(-2), ...pieces.slice(0, -2)]);
    expect(textOf(rebuilt)).toBe(textOf(doc));
  }, 30_000);

  it('a note edited by 6,000 client ids syncs in a few frames', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: '' });
    await w.join(w.owner, note.note.id);
    const doc = docOf([manyClients(6000)]);
    await w.docs.append(note.note.shortId, Y.encodeStateAsUpdate(doc), w.owner);
    const frames = recordSends(w);
    const b = await w.join(w.owner, note.note.id);
    expect(text(b.doc)).toBe(text(doc));
    expect(frames.length).toBeLessThanOrEqual(6);
  }, 30_000);

  it('updates that leave the text as it is are compacted too', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'same' });
    const a = await w.join(w.owner, note.note.id);
    // A character placed after one the note never saw: it waits, the text does not change.
    const other = new Y.Doc();
    other.clientID = 777;
    other.getText('content').insert(0, 'a');
    const stranger = Y.encodeStateAsUpdate(other);
    other.getText('content').insert(1, 'b');
    const waiting = Y.diffUpdate(Y.encodeStateAsUpdate(other), Y.encodeStateVectorFromUpdate(stranger));
    for (let i = 0; i < COMPACT_AFTER_UPDATES + 10; i += 1)
      await w.live.receive(a.connectionId, updateFrame(waiting));
    await w.deliver(a);
    const before = (await w.docs.load(note.note.shortId))!;
    expect(before.updates.length).toBeGreaterThanOrEqual(COMPACT_AFTER_UPDATES);
    await w.live.flush(note.note.shortId);
    const after = (await w.docs.load(note.note.shortId))!;
    expect(after.rev).toBe(before.rev + 1);
    expect(after.updates).toHaveLength(0);
    expect((await w.notes.getNote(w.owner, note.note.id)).content).toBe('same');
  });

  it('four writers on four instances at once cannot together pass the content limit', async () => {
    const w = await liveWorld();
    const near = MAX_CONTENT_BYTES - 20_000;
    const note = await w.notes.createNote(w.owner, { content: 'n'.repeat(near) });
    const writers = await Promise.all([1, 2, 3, 4].map(() => w.join(w.owner, note.note.id)));
    // Four function instances, each with the document warm: they check at once, then store.
    const instances = writers.map(
      () =>
        new LiveService({
          connections: w.connections,
          docs: w.docs,
          peers: w.peers,
          notes: liveNotesOf(() => w.notes),
          now: () => w.clock.now(),
        }),
    );
    for (const [i, live] of instances.entries())
      await live.receive(
        writers[i].connectionId,
        b64((e) => sync.writeSyncStep1(e, new Y.Doc())),
      );
    const frames = writers.map((c, i) => {
      let update: Uint8Array | undefined;
      const d = new Y.Doc();
      Y.applyUpdate(d, Y.encodeStateAsUpdate(c.doc));
      d.on('update', (u: Uint8Array) => {
        update = u;
      });
      d.getText('content').insert(near, String(i).repeat(8_000)); // each fits alone
      return b64((e) => sync.writeUpdate(e, update!));
    });
    await Promise.all(instances.map((live, i) => live.receive(writers[i].connectionId, frames[i])));
    const stored = (await w.docs.load(note.note.shortId))!;
    const size = Buffer.byteLength(textOf(docOf([stored.state, ...stored.updates.map((u) => u.update)])));
    expect(size).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
    expect(size).toBe(near + 16_000); // two of the four fit
    const refused = writers
      .flatMap((c) => w.peers.take(c.connectionId))
      .filter((f) => f.includes('content_too_large'));
    expect(refused).toHaveLength(2);
  });

  it('far from the limit, growing updates take the room in grants: one write for many, the rest given back', async () => {
    const w = await liveWorld();
    w.docs.now = () => w.clock.now();
    const note = await w.notes.createNote(w.owner, { content: '# Granted\n' });
    const shortId = note.note.shortId;
    const a = await w.join(w.owner, note.note.id);
    const reservations = w.docs.reservations;
    for (let i = 0; i < 40; i += 1) {
      a.doc.getText('content').insert(0, 'abc');
      await a.sending;
    }
    // The first takes its 3 bytes (the instance's first for the note), the second 3 + 8 KB: a grant.
    expect(w.docs.reservations - reservations).toBe(2);
    expect(text(a.doc)).toBe(`${'abc'.repeat(40)}# Granted\n`);
    // While the grant may be used, the room counts all of it: 3 + 3 + 8 KB taken, 120 bytes stored.
    await w.live.flush(shortId);
    expect(w.docs.rooms.get(shortId)!.room).toBe(MAX_CONTENT_BYTES - 10 - (3 + 3 + 8 * 1024));
    // Long past it, the next flush gives back what it left unused.
    w.clock.advance(3 * 60_000);
    a.doc.getText('content').delete(0, 3);
    await a.sending;
    await w.live.flush(shortId);
    expect(w.docs.rooms.get(shortId)!.room).toBe(MAX_CONTENT_BYTES - Buffer.byteLength(text(a.doc)));
  });

  it('a note past the content limit (two writers at once) still takes an update that shrinks it', async () => {
    const w = await liveWorld();
    const note = await w.notes.createNote(w.owner, { content: 'start' });
    const a = await w.join(w.owner, note.note.id);
    // What two instances let pass together: more than the limit, stored.
    const other = docOf([(await w.docs.load(note.note.shortId))!.state]);
    other.getText('content').insert(0, 'y'.repeat(MAX_CONTENT_BYTES + 10_000));
    const past = Y.encodeStateAsUpdate(other, Y.encodeStateVector(a.doc));
    for (const piece of splitUpdate(past, 20_000)) await w.docs.append(note.note.shortId, piece, w.owner);
    const b = await w.join(w.owner, note.note.id);
    b.doc.getText('content').delete(0, 100);
    await w.deliver(b);
    expect(b.errors).toEqual([]);
    b.doc.getText('content').insert(0, 'grow');
    await w.deliver(b);
    expect(b.errors.map((e) => e.code)).toEqual(['content_too_large']);
  });
});
