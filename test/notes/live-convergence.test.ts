// Live editing converges, in the style of Yjs's own fuzz tests (lib0's seeded PRNG, random inserts
// and deletes by several clients, some of them going offline, editing there and coming back), but
// through the local runner: the example provider (examples/live/provider.mjs) over the WebSocket API,
// the live functions, the stored document and the REST API. The expected text is an oracle: a Y.Doc
// given the note's first state and every edit any client made, directly; among the edits a paste
// over API Gateway's 32 KB frame while another client is offline. At the end every client,
// a fresh client (the stored state) and `GET /v1/notes/:id` hold exactly the oracle's text: nothing
// typed lost, nothing applied twice. Bounded: a fixed number of steps; LIVE_FUZZ_SEED replays a run.
import * as prng from 'lib0/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider, openLive } from '../../examples/live/provider.mjs';
import { http } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createNote, local } from './helpers.ts';

const SEED = Number(process.env.LIVE_FUZZ_SEED ?? 38_2026);
const CLIENTS = 4;
const STEPS = 80;

async function until(what: () => boolean | Promise<boolean>, ms: number, why: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await what()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`${why}: not within ${ms} ms (seed ${SEED})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Peer {
  doc: Y.Doc;
  provider: LiveProvider;
  text: Y.Text;
  online: boolean;
}

describe.skipIf(!local)('live editing converges (Yjs-style fuzz through the runner)', () => {
  let me: TestUser;
  let noteId: string;
  const peers: Peer[] = [];
  const oracle = new Y.Doc();
  const api = `${process.env.TEST_BASE_URL}/v1`;

  const join = (): Peer => {
    const doc = new Y.Doc();
    const provider = new LiveProvider(doc, () => openLive({ api, token: me.token, noteId }), {
      WebSocket,
      maxBackoffMs: 500,
    });
    // Every edit a client makes (not what it receives) goes to the oracle as it happens.
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== provider) Y.applyUpdate(oracle, update);
    });
    return { doc, provider, text: doc.getText('content'), online: true };
  };

  beforeAll(async () => {
    me = await newUser('Live Fuzzer');
    noteId = (await createNote(me.token, { content: '# Shared\n\nfirst line\n' })).id;
  });
  afterAll(() => {
    for (const p of peers) p.provider.destroy();
  });

  it(`${CLIENTS} clients, ${STEPS} random edits with disconnects and offline edits: all end equal (seed ${SEED})`, async () => {
    const gen = prng.create(SEED);
    for (let i = 0; i < CLIENTS; i += 1) peers.push(join());
    await until(() => peers.every((p) => p.provider.synced), 60_000, 'every client synced');
    for (const p of peers) expect(p.text.toString()).toBe('# Shared\n\nfirst line\n');
    // The oracle starts from the note's first state as the server gave it.
    Y.applyUpdate(oracle, Y.encodeStateAsUpdate(peers[0].doc));

    let inserted = 0;
    for (let step = 0; step < STEPS; step += 1) {
      const p = prng.oneOf(gen, peers);
      const length = p.text.length;
      const roll = prng.int32(gen, 0, 99);
      if (roll < 55 || length < 4) {
        const word = `${prng.word(gen, 1, 6)}${step % 7 === 0 ? '\n' : ' '}`;
        p.text.insert(prng.int32(gen, 0, length), word);
        inserted += word.length;
      } else if (roll < 85) {
        const at = prng.int32(gen, 0, length - 1);
        p.text.delete(at, prng.int32(gen, 1, Math.min(5, length - at)));
      } else if (p.online && peers.filter((q) => !q.online).length < 2) {
        p.provider.disconnect();
        p.online = false;
      } else if (!p.online) {
        p.provider.reconnect();
        p.online = true;
      }
      await new Promise((r) => setTimeout(r, prng.int32(gen, 0, 40)));
    }
    expect(inserted).toBeGreaterThan(50);
    // A paste larger than API Gateway's 32 KB frame, typed while another client is offline: the
    // provider sends it in pieces, the offline client gets it as the server's step 2 on return.
    const [paster, away] = [peers[0], peers[1]];
    if (!away.online) away.provider.reconnect();
    away.provider.disconnect();
    away.online = false;
    away.text.insert(0, 'typed offline meanwhile\n');
    const paste = `${'A pasted paragraph of a long document, line after line. '.repeat(900)}\n`;
    if (!paster.online) {
      paster.provider.reconnect();
      paster.online = true;
    }
    paster.text.insert(paster.text.length, paste);
    expect(paste.length).toBeGreaterThan(48 * 1024);
    for (const p of peers.filter((q) => !q.online)) {
      p.provider.reconnect();
      p.online = true;
    }
    const expected = oracle.getText('content').toString();
    await until(
      () => peers.every((p) => p.provider.synced && p.text.toString() === expected),
      60_000,
      'every client holds the oracle text',
    );
    // Nothing doubled: each client's document is the oracle's, item for item.
    for (const p of peers) expect(Y.encodeStateVector(p.doc)).toEqual(Y.encodeStateVector(oracle));

    // The stored state: a client that was never there gets the same text.
    const fresh = join();
    peers.push(fresh);
    await until(() => fresh.provider.synced, 30_000, 'a fresh client synced');
    expect(fresh.text.toString()).toBe(expected);

    // The REST door sees the same text.
    let content = '';
    await until(
      async () => {
        const res = await http('GET', `/v1/notes/${noteId}`, { token: me.token });
        content = res.body?.content;
        return content === expected;
      },
      15_000,
      'GET /v1/notes/:id holds the text',
    ).catch((err) => {
      expect(content).toBe(expected);
      throw err;
    });
  });
});
