// The example live clients (examples/live): the Node client keeps what was piped in (it waits for the
// connection and the server's acknowledgement before it exits), and a malformed frame from another
// client is reported, not fatal. The provider sends awareness only when it changes (no renewal every
// 15 s), keeps a peer until it says goodbye or the server removes it (its connection ended), answers a peer that appears with its own state, and
// batches its updates and awareness for 100 ms.
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider, openLive } from '../../examples/live/provider.mjs';
import { newUser } from '../support/identity.ts';
import { call, createNote, local } from './helpers.ts';

const api = () => `${process.env.TEST_BASE_URL}/v1`;

describe('the example provider', () => {
  it('reports a malformed awareness frame instead of throwing', () => {
    const doc = new Y.Doc();
    // Never connects: the connect callback does not resolve.
    const provider = new LiveProvider(doc, () => new Promise(() => {}), { WebSocket });
    const errors: { code: string }[] = [];
    provider.on('error', (e: { code: string }) => errors.push(e));
    for (const frame of ['AQ0BBwEJe25vdCBqc29u', 'AQLoBw==', 'AQA=']) {
      expect(() => provider.receive(frame)).not.toThrow();
    }
    expect(errors.map((e) => e.code)).toEqual(['bad_message', 'bad_message', 'bad_message']);
    provider.destroy();
  });
});

describe.skipIf(!local)('examples/live/node-client.mjs', () => {
  it('applies piped input before it exits', async () => {
    const me = await newUser('Live Piper');
    const note = await createNote(me.token, { content: '' });
    const child = spawn(
      process.execPath,
      ['examples/live/node-client.mjs', '--token', me.token, '--note', note.id, '--api', api()],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end('first line\nsecond line\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(0);
    const started = Date.now();
    let content = '';
    while (Date.now() - started < 15_000) {
      content = (await call('GET', `/v1/notes/${note.id}`, { token: me.token })).body.content;
      if (content === 'first line\nsecond line\n') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(content).toBe('first line\nsecond line\n');
  }, 60_000);
});

/** A provider on a note whose frames from the server are counted by kind (awareness, update). */
function counted(token: string, noteId: string, options: Record<string, unknown> = {}) {
  const doc = new Y.Doc();
  const provider = new LiveProvider(doc, () => openLive({ api: api(), token, noteId }), {
    WebSocket,
    ...options,
  });
  const got = { awareness: 0, update: 0 };
  const receive = provider.receive.bind(provider);
  provider.receive = (text: string) => {
    if (!text.startsWith('{')) {
      const bytes = Buffer.from(text, 'base64');
      if (bytes[0] === 1) got.awareness += 1;
      else if (bytes[0] === 0 && bytes[1] === 2) got.update += 1;
    }
    receive(text);
  };
  return { doc, provider, got, text: doc.getText('content') };
}

async function until(what: () => boolean, ms = 45_000) {
  const deadline = performance.now() + ms;
  while (!what()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until no frame has arrived at these peers for a second (the answers to a join are done). */
async function settled(...peers: { got: { awareness: number; update: number } }[]) {
  const count = () => JSON.stringify(peers.map((p) => p.got));
  for (let last = count(); ; ) {
    await pause(1000);
    if (count() === last) return;
    last = count();
  }
}
const holds = (p: { provider: LiveProvider }, other: { doc: Y.Doc }) =>
  p.provider.awareness.getStates().get(other.doc.clientID)?.user !== undefined;

describe.skipIf(!local)('the example provider: awareness when it changes, batches, keepalive', () => {
  it('sends awareness only when the local state changes; keeps a peer until it says goodbye', async () => {
    const me = await newUser('Quiet Cursor');
    const note = await createNote(me.token, { content: 'still\n' });
    // y-protocols' timer, faked (the sockets' timers stay real): below, 40 s pass in a moment.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const peers = [counted(me.token, note.id), counted(me.token, note.id)];
    try {
      const [a, b] = peers;
      // Names given once both are connected: each hears of the other's change (joining is the next test).
      await until(() => a.provider.synced && b.provider.synced);
      a.provider.awareness.setLocalStateField('user', { name: 'Ada' });
      b.provider.awareness.setLocalStateField('user', { name: 'Bob' });
      await until(() => holds(a, b) && holds(b, a));
      await settled(a, b);
      const before = { a: a.got.awareness, b: b.got.awareness };
      // Every state last heard of 40 s ago (past y-protocols' 15 s renewal and 30 s timeout; its
      // clock is lib0's Date.now, taken before any faking), then its timer's next ticks.
      for (const p of peers)
        for (const meta of p.provider.awareness.meta.values()) meta.lastUpdated -= 40_000;
      vi.advanceTimersByTime(6_000);
      expect(holds(b, a), 'Bob still holds Ada after 40 s without a word').toBe(true);
      expect(holds(a, b)).toBe(true);
      await pause(1000);
      expect({ a: a.got.awareness, b: b.got.awareness }, 'nobody moved: no awareness frame').toEqual(before);
      // A move is one frame; the goodbye another, and the peer drops the state at once.
      a.provider.awareness.setLocalStateField('cursor', { at: 3 });
      await until(() => b.got.awareness >= before.b + 1);
      await pause(500);
      expect(b.got.awareness).toBe(before.b + 1);
      a.provider.destroy();
      await until(() => !b.provider.awareness.getStates().has(a.doc.clientID));
    } finally {
      for (const p of peers) p.provider.destroy();
      vi.useRealTimers();
    }
  }, 120_000);

  it('a client whose socket dies without a goodbye loses its cursor on the others within 5 s', async () => {
    const me = await newUser('Vanishing Cursor');
    const note = await createNote(me.token, { content: 'gone\n' });
    const peers = [counted(me.token, note.id), counted(me.token, note.id)];
    try {
      const [a, b] = peers;
      a.provider.awareness.setLocalStateField('user', { name: 'Ada' });
      b.provider.awareness.setLocalStateField('user', { name: 'Bob' });
      await until(() => holds(a, b) && holds(b, a));
      // Ada's tab crashes: the socket ends without a close frame and her provider never comes back.
      const inner = a.provider as unknown as { ws?: WebSocket; shouldConnect: boolean };
      const raw = inner.ws!;
      inner.ws = undefined;
      inner.shouldConnect = false;
      raw.terminate();
      const started = performance.now();
      await until(() => !b.provider.awareness.getStates().has(a.doc.clientID), 5_000);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(holds(b, b), 'Bob keeps his own state').toBe(true);
    } finally {
      for (const p of peers) p.provider.destroy();
    }
  }, 60_000);

  it('one who joins later, or comes back, sees the cursors already there', async () => {
    const me = await newUser('Late Joiner');
    const note = await createNote(me.token, { content: 'here\n' });
    // No renewal can help (y-protocols' timer never ticks): only what the providers send on joining.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const peers = [counted(me.token, note.id), counted(me.token, note.id)];
    try {
      const [a, b] = peers;
      a.provider.awareness.setLocalStateField('user', { name: 'Ada' });
      b.provider.awareness.setLocalStateField('user', { name: 'Bob' });
      await until(() => holds(a, b) && holds(b, a));
      const c = counted(me.token, note.id);
      peers.push(c);
      c.provider.awareness.setLocalStateField('user', { name: 'Cy' });
      await until(() => holds(c, a) && holds(c, b) && holds(a, c) && holds(b, c));
      // Bob reconnects (a new URL): he sees the others again, and they see him.
      b.provider.reconnect();
      await until(() => !holds(b, a));
      await until(() => holds(b, a) && holds(b, c) && holds(a, b) && holds(c, b));
    } finally {
      for (const p of peers) p.provider.destroy();
      vi.useRealTimers();
    }
  }, 120_000);

  it('a burst of keystrokes and the cursor moves in it leave as one update and one awareness frame', async () => {
    const me = await newUser('Burst Typist');
    const note = await createNote(me.token, { content: '' });
    const [a, b] = [counted(me.token, note.id), counted(me.token, note.id)];
    try {
      a.provider.awareness.setLocalStateField('user', { name: 'Ada' });
      b.provider.awareness.setLocalStateField('user', { name: 'Bob' });
      await until(() => a.provider.synced && b.provider.synced && holds(b, a));
      await settled(a, b);
      const before = { ...b.got };
      const word = 'keystrokes';
      const started = performance.now();
      for (const [i, ch] of [...word].entries()) {
        a.text.insert(i, ch); // one transaction (one Yjs update) each
        a.provider.awareness.setLocalStateField('cursor', { at: i + 1 });
      }
      await until(() => b.text.toString() === word);
      const latency = performance.now() - started;
      await pause(400);
      expect({ awareness: b.got.awareness - before.awareness, update: b.got.update - before.update }).toEqual(
        {
          awareness: 1,
          update: 1,
        },
      );
      expect(b.provider.awareness.getStates().get(a.doc.clientID)?.cursor).toEqual({ at: word.length });
      expect(latency).toBeLessThan(10_000);
      // Another burst after the window is its own frame.
      a.text.insert(word.length, '!');
      await until(() => b.text.toString() === `${word}!`);
      expect(b.got.update - before.update).toBe(2);
    } finally {
      a.provider.destroy();
      b.provider.destroy();
    }
  }, 120_000);
});
