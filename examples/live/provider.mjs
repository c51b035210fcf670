// A small live-editing client for a note (docs/live.md), for the browser and Node alike: it
// keeps a Yjs document in step with everyone else editing the note, over the WebSocket URL that
// `POST /v1/notes/:noteId/live` answers. The note's markdown is the document's `Y.Text` named
// `content`.
//
//   import * as Y from 'yjs';
//   import { LiveProvider, openLive } from './provider.mjs';
//   const doc = new Y.Doc();
//   const live = new LiveProvider(doc, () => openLive({ api: 'http://localhost:3000/v1', token, noteId }));
//   live.on('synced', () => console.log(doc.getText('content').toString()));
//   doc.getText('content').insert(0, 'Hello ');   // everyone sees it
//
// The wire, as y-websocket frames it: each WebSocket message is one y-protocols message (a varuint
// `0` sync or `1` awareness, then its payload), base64 in a text frame (API Gateway carries text
// frames only). On open the client sends sync step 1; the server answers with step 2 (what the client
// lacks) and its own step 1, which the client answers with step 2 (what the server lacks: edits made
// offline). Then each side sends its updates as they happen. A JSON text frame is not y-protocols: it
// is `{"error":{"code","message"}}` from the note's server, or API Gateway's own `{"message": ...}`.
// Each connection needs a fresh URL (its ticket is single-use, 60 s), so the provider is given a
// function that asks for one, and calls it again for every reconnect.
//
// What it sends, and why so little (every frame is an API Gateway message, billed, relayed to every
// other connection of the note, and a Lambda invocation):
//   - its own updates batched for at most `batchMs` (100 ms): a burst of keystrokes leaves as one
//     update (Y.mergeUpdates), and the cursor moves of that burst as one awareness update;
//   - awareness only when the local state changes (a cursor, a selection, a name): never
//     y-protocols' clock-only renewal every 15 s, and a peer's state is kept until its connection is
//     gone (it says so with a `null` state), not dropped after 30 s; both are y-protocols'
//     Awareness timer, which the provider stops;
//   - on joining its own state; and whenever a peer appears (joins or comes back), its state once
//     more as an answer (type 4: the target client ids, then the awareness update), which the
//     server relays to that peer's connection alone, so that one sees the cursors already there (the
//     server keeps no awareness state) and a join costs a message per person, not people × people;
//   - after `keepaliveMs` (9.5 minutes) without sending anything, `{"action":"ping"}`: API Gateway
//     answers it itself (a MOCK route, no function), and the connection outlives the 10-minute idle
//     limit.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { fromBase64, toBase64 } from 'lib0/buffer';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
/**
 * An awareness answer (target client ids, then an awareness update): this client's state sent once
 * more to peers that just appeared; the server relays it to them alone, and it is answered with nothing.
 */
export const MESSAGE_AWARENESS_ANSWER = 4;

/**
 * The largest update the provider sends in one message: API Gateway takes frames of up to 32 KB, a
 * browser sends each message as one frame, and base64 makes 4 bytes of 3.
 */
export const MAX_UPDATE_BYTES = 20 * 1024;

/** The most target client ids in one answer (the server's bound). */
const ANSWER_MAX_TARGETS = 8;

/** How long the provider gathers its own updates and awareness changes before it sends them. */
export const BATCH_MS = 100;

/** A keepalive after this long without a frame sent: under API Gateway's 10-minute idle limit. */
export const KEEPALIVE_MS = 9.5 * 60 * 1000;

/** The keepalive frame: JSON, so the route selection expression ($request.body.action) picks `ping`. */
export const KEEPALIVE_FRAME = '{"action":"ping"}';

/**
 * Cuts an update into updates of at most about `maxBytes` (one client's structs in clock order, a long
 * string sliced as Yjs itself splits items) and its deletions apart: applied in any order, together
 * they are the update. A large paste, or many edits made offline, then still passes API Gateway.
 */
export function splitUpdate(update, maxBytes = MAX_UPDATE_BYTES) {
  if (update.length <= maxBytes) return [update];
  const pieces = [];
  let run = [];
  let size = 0;
  const flush = () => {
    if (run.length) pieces.push(encodeRun(run));
    run = [];
    size = 0;
  };
  for (const struct of Y.decodeUpdate(update).structs.flatMap((s) => slices(s, Math.floor(maxBytes / 4)))) {
    const last = run.at(-1);
    const follows =
      last && last.id.client === struct.id.client && last.id.clock + last.length === struct.id.clock;
    const weight = struct.content instanceof Y.ContentString ? struct.content.str.length * 3 + 32 : 32;
    if (!follows || size + weight > maxBytes) flush();
    run.push(struct);
    size += weight;
  }
  flush();
  pieces.push(Y.diffUpdate(update, Y.encodeStateVectorFromUpdate(update))); // the deletions alone
  return pieces;
}

/** A long string item as items of at most `chars` characters (never between a surrogate pair's halves). */
function slices(s, chars) {
  if (!(s instanceof Y.Item) || !(s.content instanceof Y.ContentString) || s.length <= chars) return [s];
  const str = s.content.str;
  const { client, clock } = s.id;
  const out = [];
  for (let off = 0; off < str.length; ) {
    let end = Math.min(str.length, off + chars);
    if (end < str.length && /[\uD800-\uDBFF]/.test(str[end - 1])) end -= 1;
    const origin = off === 0 ? s.origin : Y.createID(client, clock + off - 1);
    const content = new Y.ContentString(str.slice(off, end));
    out.push(
      new Y.Item(
        Y.createID(client, clock + off),
        null,
        origin,
        null,
        s.rightOrigin,
        s.parent,
        s.parentSub,
        content,
      ),
    );
    off = end;
  }
  return out;
}

/** One client's consecutive structs as a V1 update with no deletions (as Yjs writes one). */
function encodeRun(run) {
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, 1);
  encoding.writeVarUint(encoder.restEncoder, run.length);
  encoder.writeClient(run[0].id.client);
  encoding.writeVarUint(encoder.restEncoder, run[0].id.clock);
  for (const s of run) s.write(encoder, 0);
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}

/**
 * Asks the Notes API for a live URL: `{ url, expiresAt, access: 'write' | 'read' }`. `teamPath`
 * for a team's note. Throws with the API's status on a refusal (403, 404).
 */
export async function openLive({ api, token, noteId, teamPath }) {
  const path = teamPath
    ? `/teams/${encodeURIComponent(teamPath)}/notes/${encodeURIComponent(noteId)}/live`
    : `/notes/${encodeURIComponent(noteId)}/live`;
  const res = await fetch(`${api}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 201) {
    const error = new Error(`POST ${path} answered ${res.status}`);
    error.status = res.status;
    throw error;
  }
  return res.json();
}

export class LiveProvider {
  /**
   * @param doc a Y.Doc (its Y.Text `content` is the note)
   * @param connect an async function answering `{ url, access }` (openLive above), called for each connection
   * @param options.WebSocket a WebSocket class (default: the global one of browsers and Node 22+; on Node 20 pass `ws`'s)
   * @param options.awareness a y-protocols Awareness (default: a new one): cursors, names
   * @param options.maxBackoffMs the longest wait between reconnects (default 5 s)
   * @param options.batchMs how long own updates and awareness changes are gathered into one frame each (default 100 ms; 0 sends each at once)
   * @param options.keepaliveMs a keepalive frame after this long without sending (default 9.5 minutes)
   */
  constructor(doc, connect, options = {}) {
    this.doc = doc;
    this.connect = connect;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.ownsAwareness = !options.awareness;
    this.awareness = options.awareness ?? new awarenessProtocol.Awareness(doc);
    this.maxBackoffMs = options.maxBackoffMs ?? 5000;
    this.batchMs = options.batchMs ?? BATCH_MS;
    this.keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
    // y-protocols' timer renews the local state every 15 s (a frame to everyone that changes nothing)
    // and drops a peer not heard of for 30 s: here a state is sent when it changes and kept until
    // its connection says goodbye (or this one closes).
    clearInterval(this.awareness._checkInterval);
    /** Own updates and awareness client ids not sent yet (sent together at most batchMs later). */
    this.pendingUpdates = [];
    this.pendingAwareness = new Set();
    this.batchTimer = undefined;
    this.keepaliveTimer = undefined;
    /** Peers that appeared and are to be sent this client's state (an answer to them alone). */
    this.pendingAnswers = new Set();
    /** Whether an answer's states are being applied (they are not answered). */
    this.inAnswer = false;
    /** The peers whose state this client holds: one that appears is answered with this client's state. */
    this.present = new Set();
    /** Whether this client's state went out on an earlier connection (peers may still hold it). */
    this.announced = false;
    /** Whether the server's state has arrived on the current connection. */
    this.synced = false;
    /** 'write' or 'read', as the server granted (a read connection's edits are not applied). */
    this.access = undefined;
    this.ws = undefined;
    this.opening = false;
    this.shouldConnect = true;
    this.failures = 0;
    this.listeners = new Map();
    /** flush() callers, resolved when the server's state vector covers this document's. */
    this.flushes = [];
    this.onUpdate = (update, origin) => {
      if (origin === this) return;
      this.pendingUpdates.push(update);
      this.schedule();
    };
    // 'change', not 'update': y-protocols emits 'update' also when a state is set again unchanged.
    this.onAwareness = ({ added, updated, removed }, origin) => {
      if (origin !== this) {
        for (const id of added.concat(updated, removed)) this.pendingAwareness.add(id);
        return this.schedule();
      }
      // A peer's state arrived: one that was not here before joined (or came back: its goodbye and
      // its state in one update) and has not seen ours.
      const back = new Set(removed);
      const appeared = added
        .concat(updated)
        .filter((id) => id !== this.doc.clientID && (back.has(id) || !this.present.has(id)));
      for (const id of removed) this.present.delete(id);
      for (const id of appeared) this.present.add(id);
      // A state that came as an answer is one that peer sent because it saw ours: nothing to answer.
      if (appeared.length > 0 && !this.inAnswer && this.awareness.getLocalState() !== null) {
        for (const id of appeared) this.pendingAnswers.add(id);
        this.schedule();
      }
    };
    doc.on('update', this.onUpdate);
    this.awareness.on('change', this.onAwareness);
    void this.open();
  }

  /** Listens to 'synced' (), 'status' ({ status: 'connecting' | 'connected' | 'disconnected' }), 'error' ({ code, message }). */
  on(event, listener) {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return this;
  }

  off(event, listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }

  emit(event, value) {
    for (const listener of this.listeners.get(event) ?? []) listener(value);
  }

  async open() {
    if (!this.shouldConnect || this.ws || this.opening) return;
    this.opening = true;
    this.emit('status', { status: 'connecting' });
    let grant;
    try {
      grant = await this.connect();
    } catch (err) {
      // Refused for good (no access, no note): stop; anything else: try again later, less often.
      if (err?.status === 403 || err?.status === 404 || err?.status === 401) {
        this.shouldConnect = false;
        this.emit('error', { code: 'refused', message: err.message });
        this.emit('status', { status: 'disconnected' });
        return;
      }
      this.failures += 1;
      return this.retry();
    } finally {
      this.opening = false;
    }
    if (!this.shouldConnect) return;
    this.access = grant.access;
    const ws = new this.WebSocket(grant.url);
    this.ws = ws;
    this.synced = false;
    ws.onopen = () => {
      this.failures = 0;
      this.emit('status', { status: 'connected' });
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeSyncStep1(encoder, this.doc);
      this.send(encoder);
      this.announce();
    };
    ws.onmessage = (event) => this.receive(String(event.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.synced = false;
      clearTimeout(this.keepaliveTimer);
      this.forgetPeers();
      this.emit('status', { status: 'disconnected' });
      this.failures += 1;
      this.retry();
    };
    ws.onerror = () => {};
  }

  /**
   * Sends this client's state as it joins. After an earlier connection the same update first holds a
   * `null` at the last clock (one frame: the relay keeps no order between frames): peers still holding
   * the old state drop it and take the new one (two clocks on: the server's removal when the earlier
   * connection ended was one on), so they see this client appear and answer with theirs.
   */
  announce() {
    const state = this.awareness.getLocalState();
    if (state === null) return;
    const id = this.doc.clientID;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, this.announced ? 2 : 1);
    if (this.announced) {
      encoding.writeVarUint(encoder, id);
      encoding.writeVarUint(encoder, this.awareness.meta.get(id).clock);
      encoding.writeVarString(encoder, 'null');
    }
    // The next clock; no 'change', so nothing else is sent. After an earlier connection, the one
    // after: the server may have removed the state at the next clock when that connection ended.
    this.awareness.setLocalState({ ...state });
    if (this.announced) this.awareness.setLocalState({ ...state });
    encoding.writeVarUint(encoder, id);
    encoding.writeVarUint(encoder, this.awareness.meta.get(id).clock);
    encoding.writeVarString(encoder, JSON.stringify(state));
    this.sendAwareness(encoding.toUint8Array(encoder));
    this.pendingAwareness.delete(id);
    this.announced = true;
  }

  /** The others' cursors are gone with the connection; their states are taken again, as new, on the next. */
  forgetPeers() {
    const others = [...this.awareness.getStates().keys()].filter((id) => id !== this.doc.clientID);
    awarenessProtocol.removeAwarenessStates(this.awareness, others, this);
    for (const id of others) this.awareness.meta.delete(id);
    this.present.clear();
    this.pendingAnswers.clear();
  }

  /** Sends what was gathered at most batchMs after the first of it. */
  schedule() {
    if (this.batchMs <= 0) return this.sendPending();
    this.batchTimer ??= setTimeout(() => this.sendPending(), this.batchMs);
  }

  /** The gathered updates as one (split only past MAX_UPDATE_BYTES), then the awareness changes as one. */
  sendPending() {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    const updates = this.pendingUpdates.splice(0);
    if (updates.length > 0) {
      const update = updates.length === 1 ? updates[0] : Y.mergeUpdates(updates);
      for (const piece of splitUpdate(update)) {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.writeUpdate(encoder, piece);
        this.send(encoder);
      }
    }
    const ids = [...this.pendingAwareness];
    this.pendingAwareness.clear();
    const targets = [...this.pendingAnswers];
    this.pendingAnswers.clear();
    if (ids.length > 0) this.sendAwareness(awarenessProtocol.encodeAwarenessUpdate(this.awareness, ids));
    // Own state sent to everyone in this batch: the peers that appeared have it too.
    if (ids.includes(this.doc.clientID) || this.awareness.getLocalState() === null) return;
    const own = awarenessProtocol.encodeAwarenessUpdate(this.awareness, [this.doc.clientID]);
    for (let i = 0; i < targets.length; i += ANSWER_MAX_TARGETS) {
      const encoder = encoding.createEncoder();
      const some = targets.slice(i, i + ANSWER_MAX_TARGETS);
      encoding.writeVarUint(encoder, MESSAGE_AWARENESS_ANSWER);
      encoding.writeVarUint(encoder, some.length);
      for (const id of some) encoding.writeVarUint(encoder, id);
      encoding.writeVarUint8Array(encoder, own);
      this.send(encoder);
    }
  }

  sendAwareness(update) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(encoder, update);
    this.send(encoder);
  }

  retry() {
    if (!this.shouldConnect) return;
    const wait = Math.min(this.maxBackoffMs, 100 * 2 ** Math.min(this.failures, 10));
    setTimeout(() => void this.open(), wait);
  }

  receive(text) {
    try {
      this.receiveFrame(text);
    } catch (err) {
      // A malformed frame (another client's bad awareness, a garbled sync message): reported, not fatal.
      this.emit('error', { code: 'bad_message', message: String(err?.message ?? err).slice(0, 200) });
    }
  }

  receiveFrame(text) {
    if (text.startsWith('{')) {
      // Not y-protocols: the server's error ({"error":{code,message}}) or API Gateway's ({"message"}).
      try {
        const body = JSON.parse(text);
        this.emit('error', body.error ?? { code: 'gateway', message: body.message });
      } catch {
        this.emit('error', { code: 'bad_message', message: text.slice(0, 200) });
      }
      return;
    }
    const decoder = decoding.createDecoder(fromBase64(text));
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_SYNC) {
      const kind = decoding.peekVarUint(decoder);
      if (kind === syncProtocol.messageYjsSyncStep1) {
        // Answered with step 2 (what the server lacks: edits made offline), in pieces that pass the gateway.
        decoding.readVarUint(decoder);
        const serverVector = decoding.readVarUint8Array(decoder);
        const missing = Y.encodeStateAsUpdate(this.doc, serverVector);
        for (const piece of splitUpdate(missing)) {
          const encoder = encoding.createEncoder();
          encoding.writeVarUint(encoder, MESSAGE_SYNC);
          encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2);
          encoding.writeVarUint8Array(encoder, piece);
          this.send(encoder);
        }
        if (
          this.flushes.length > 0 &&
          covers(Y.decodeStateVector(serverVector), Y.encodeStateVector(this.doc))
        ) {
          for (const done of this.flushes.splice(0)) done();
        }
        return;
      }
      syncProtocol.readSyncMessage(decoder, encoding.createEncoder(), this.doc, this);
      if (kind === syncProtocol.messageYjsSyncStep2 && !this.synced) {
        this.synced = true;
        this.emit('synced');
      }
    } else if (type === MESSAGE_AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), this);
    } else if (type === MESSAGE_AWARENESS_ANSWER) {
      const count = decoding.readVarUint(decoder);
      for (let i = 0; i < count; i += 1) decoding.readVarUint(decoder);
      this.inAnswer = true;
      try {
        awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), this);
      } finally {
        this.inAnswer = false;
      }
    }
  }

  send(encoder) {
    this.sendText(toBase64(encoding.toUint8Array(encoder)));
  }

  /** Sends a text frame on the open connection, and sets the keepalive to follow keepaliveMs after it. */
  sendText(text) {
    const ws = this.ws;
    if (ws?.readyState !== 1) return;
    ws.send(text);
    clearTimeout(this.keepaliveTimer);
    this.keepaliveTimer = setTimeout(
      () => this.ws === ws && this.sendText(KEEPALIVE_FRAME),
      this.keepaliveMs,
    );
  }

  /**
   * Resolves once the server holds every insertion made here so far (its state vector covers this
   * document's): asks with a sync step 1, which the server answers with its own. Call it before
   * destroy() when what was typed must not be lost (a script that exits when its input ends).
   */
  flush() {
    this.sendPending();
    return new Promise((resolve) => {
      this.flushes.push(resolve);
      const ask = () => {
        if (!this.flushes.includes(resolve)) return;
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.writeSyncStep1(encoder, this.doc);
        this.send(encoder);
        setTimeout(ask, 1000);
      };
      ask();
    });
  }

  /** Goes offline: edits stay local (and are sent on reconnect) until reconnect(). */
  disconnect() {
    this.shouldConnect = false;
    const ws = this.ws;
    this.ws = undefined;
    this.synced = false;
    clearTimeout(this.keepaliveTimer);
    // What was gathered is in the document: the next connection's sync sends it.
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    this.pendingUpdates = [];
    this.pendingAwareness.clear();
    if (ws) {
      ws.close();
      this.forgetPeers();
      this.emit('status', { status: 'disconnected' });
    }
  }

  /** Connects again with a fresh URL (online or not): what was edited meanwhile is exchanged. */
  reconnect() {
    this.shouldConnect = true;
    this.failures = 0;
    if (this.ws) this.ws.close();
    else void this.open();
  }

  /** Stops for good: closes the connection, says goodbye to the others' cursors. */
  destroy() {
    awarenessProtocol.removeAwarenessStates(this.awareness, [this.doc.clientID], 'destroy');
    this.sendPending(); // the goodbye (and anything typed last) before the close
    this.disconnect();
    this.doc.off('update', this.onUpdate);
    this.awareness.off('change', this.onAwareness);
    if (this.ownsAwareness) this.awareness.destroy();
  }
}

/** Whether state vector `server` (a Map) has every clock of encoded state vector `local`. */
function covers(server, local) {
  for (const [client, clock] of Y.decodeStateVector(local)) {
    if ((server.get(client) ?? 0) < clock) return false;
  }
  return true;
}
