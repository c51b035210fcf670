// What was typed live survives a function's and the runner's restart (docs/live.md, Storage): a
// runner of this file's own, on the run's DynamoDB Local and S3 emulator, is closed while clients
// type (its WebSocket connections and function environments end with it) and a new one is started
// on the same stack; and a runner whose function environments all end after each invocation (no
// warm copy of the document survives a message) relays and keeps every edit. Its runners work on a
// table of this file's own (on the run's DynamoDB Local): their stream pollers then read only this
// file's writes, as one stack's event source mapping does, not the shared runner's notes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider, openLive } from '../../examples/live/provider.mjs';
import type { Runner } from '../../infra/local/runner.ts';
import { newUser } from '../support/identity.ts';
import { OwnTable } from '../support/own-table.ts';
import { local } from './helpers.ts';

const table = new OwnTable('live-restart');
const providers: LiveProvider[] = [];
beforeAll(async () => {
  if (local) await table.create(); // this file's users, and its runners' functions, use it
}, 120_000);
afterAll(async () => {
  for (const p of providers) p.destroy();
  if (local) await table.drop();
});

/** A note created through one of this file's runners (its table is this file's own). */
async function createNote(runner: Runner, token: string, content: string): Promise<{ id: string }> {
  const res = await fetch(`${runner.url}/v1/notes`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

/** A runner of this file's own on its table; `warmFunctions` idle environments kept. */
const start = (name: string, warmFunctions: number): Promise<Runner> =>
  table.start(name, { LOCAL_WARM_FUNCTIONS: String(warmFunctions) });
const stop = (runner: Runner): Promise<void> => table.stop(runner);

async function until(what: () => boolean | Promise<boolean>, ms: number, why: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await what()) return;
    if (Date.now() - started > ms) throw new Error(`${why}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A live client (the example provider) connecting through whichever runner `via()` names. */
function client(token: string, noteId: string, via: () => Runner) {
  const doc = new Y.Doc();
  const provider = new LiveProvider(doc, () => openLive({ api: `${via().url}/v1`, token, noteId }), {
    WebSocket,
    maxBackoffMs: 300,
  });
  providers.push(provider);
  return { text: doc.getText('content'), provider };
}

/** The note's content as GET /v1/notes/:id answers it through the runner. */
async function contentVia(runner: Runner, token: string, noteId: string): Promise<string> {
  const res = await fetch(`${runner.url}/v1/notes/${noteId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: string }).content;
}

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}\n`);

describe.skipIf(!local)('what was typed live survives restarts', () => {
  it("the runner's restart loses nothing: what was relayed is stored, what was in flight comes back with its client", async () => {
    const me = await newUser('Live Restart');
    let runner = await start('first', 16);
    const note = await createNote(runner, me.token, 'start\n');
    const a = client(me.token, note.id, () => runner);
    const b = client(me.token, note.id, () => runner);
    await until(() => a.provider.synced && b.provider.synced, 30_000, 'both synced');
    // Typed and relayed to b, not waited for in the note's REST content.
    const relayed = lines('relayed', 10);
    for (const line of relayed) a.text.insert(a.text.length, line);
    const afterRelayed = `start\n${relayed.join('')}`;
    await until(() => b.text.toString() === afterRelayed, 20_000, 'b sees a');
    // Typed as the runner stops: sent or not, a keeps them and offers them again when it reconnects.
    const inFlight = lines('in flight', 5);
    for (const line of inFlight) a.text.insert(a.text.length, line);
    b.provider.destroy();
    await stop(runner);
    await until(() => !a.provider.synced, 5_000, 'a disconnected');

    runner = await start('second', 16);
    // a reconnects only once this one has read the store: what it holds came from there.
    let aMayConnect = false;
    const held = client(me.token, note.id, () => runner);
    const aProvider = a.provider as unknown as { connect: () => Promise<unknown> };
    const connectA = aProvider.connect;
    aProvider.connect = async () => {
      if (!aMayConnect) throw Object.assign(new Error('not yet'), { status: 503 });
      return connectA();
    };
    await until(() => held.provider.synced, 30_000, 'a new client synced through the new runner');
    expect(held.text.toString()).toBe(afterRelayed);
    aMayConnect = true;
    const all = `${afterRelayed}${inFlight.join('')}`;
    await until(
      () => a.provider.synced && held.text.toString() === all,
      30_000,
      'the in-flight edits arrive',
    );
    expect(a.text.toString()).toBe(all);
    await until(
      async () => (await contentVia(runner, me.token, note.id)) === all,
      15_000,
      'GET holds every edit',
    );
    // And a client that comes later still reads every edit.
    const later = client(me.token, note.id, () => runner);
    await until(() => later.provider.synced, 30_000, 'a later client synced');
    expect(later.text.toString()).toBe(all);
    await stop(runner);
  });

  it('function environments ending after every invocation lose nothing', async () => {
    const me = await newUser('Live Cold');
    // No idle environment kept: each message's function starts cold, without a warm document.
    const runner = await start('cold', 0);
    const note = await createNote(runner, me.token, 'middle\n');
    const a = client(me.token, note.id, () => runner);
    const b = client(me.token, note.id, () => runner);
    await until(() => a.provider.synced && b.provider.synced, 30_000, 'both synced');
    const fromA = lines('a', 6);
    const fromB = lines('b', 6);
    for (let i = 0; i < fromA.length; i++) {
      a.text.insert(a.text.length, fromA[i]);
      b.text.insert(0, fromB[i]);
      await new Promise((r) => setTimeout(r, 100));
    }
    const all = `${[...fromB].reverse().join('')}middle\n${fromA.join('')}`;
    await until(() => a.text.toString() === all && b.text.toString() === all, 30_000, 'a and b converge');
    const c = client(me.token, note.id, () => runner);
    await until(() => c.provider.synced, 30_000, 'c synced');
    expect(c.text.toString()).toBe(all);
    await until(
      async () => (await contentVia(runner, me.token, note.id)) === all,
      15_000,
      'GET holds every edit',
    );
    await stop(runner);
  });
});
