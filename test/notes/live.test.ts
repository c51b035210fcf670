// Live editing through the local runner (docs/live.md): the connect URL (single use, 60 s, bound to
// the caller and the note, access from the permissions), the two doors (a live edit in GET within
// 2 s, a REST PATCH reaching live clients as the smallest change, versions following), access
// changes closing or downgrading connections within 5 s, and the storage (compaction, a large
// note's state in S3 under live/, no item near 400 KB, what was typed read back from the store).
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider, openLive } from '../../examples/live/provider.mjs';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { identityKeys, liveKeys } from '../../lib/data/keys.ts';
import {
  addConnection,
  appendUpdate,
  claimClientIds,
  compactDoc,
  createDoc,
  dropDoc,
  getConnection,
  loadDoc,
  markConnectionClosed,
  putTicket,
  calibrateRoom,
  GRANT_SETTLE_MS,
  reserveRoom,
  setConnectionAccess,
  takeTicket,
} from '../../lib/notes/live/adapters/dynamo-live.ts';
import { docOf, seedUpdate, textOf } from '../../lib/notes/live/document.ts';
import { s3Client } from '../../lib/data/s3.ts';
import { COMPACT_AFTER_UPDATES, INLINE_STATE_BYTES } from '../../lib/notes/live/model.ts';
import { LIVE_WINDOW_MS } from '../../lib/notes/webhooks/events/live-window.ts';
import {
  carriedWindow,
  carryWindow,
  dropCarriedWindow,
} from '../../lib/notes/webhooks/adapters/dynamo-live-windows.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { busyFactor } from '../support/processes.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call, createNote, local } from './helpers.ts';

const api = () => `${process.env.TEST_BASE_URL}/v1`;
const providers: LiveProvider[] = [];
let rx: Receiver | undefined;
afterAll(async () => {
  for (const p of providers) p.destroy();
  await rx?.close();
});

async function until<T>(what: () => T | Promise<T>, ms: number, why: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await what()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`${why}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A live client of the example provider; `errors` collects the server's error frames. */
function client(token: string, noteId: string, options: { batchMs?: number } = {}) {
  const doc = new Y.Doc();
  const errors: { code: string; message: string }[] = [];
  const statuses: string[] = [];
  const provider = new LiveProvider(doc, () => openLive({ api: api(), token, noteId }), {
    WebSocket,
    maxBackoffMs: 60_000,
    ...options,
  });
  provider.on('error', (e: { code: string; message: string }) => errors.push(e));
  provider.on('status', (s: { status: string }) => statuses.push(s.status));
  providers.push(provider);
  return { doc, text: doc.getText('content'), provider, errors, statuses };
}

/** One raw WebSocket: resolves when open, rejects with the refused upgrade's status. */
const connect = (url: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode })),
    );
    ws.once('error', reject);
  });

const liveItems = async (shortId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': liveKeys.docPartition(shortId) },
      }),
    )
  ).Items ?? [];

describe.skipIf(!local)('live editing through the runner', () => {
  it('POST /v1/notes/:id/live answers a single-use URL valid 60 s with the access the note gives', async () => {
    const owner = await newUser('Live Owner');
    const reader = await newUser('Live Reader');
    const note = await createNote(owner.token, { content: 'x', readPermission: 'signed_in' });
    const res = await call('POST', `/v1/notes/${note.id}/live`, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.access).toBe('write');
    expect(res.body.url).toMatch(/^ws:\/\/.+\/_live\?ticket=[\w-]{43}$/);
    expect(res.body.expiresAt - Date.now()).toBeGreaterThan(50_000);
    expect(res.body.url).not.toContain(owner.token);
    const read = await call('POST', `/v1/notes/${note.id}/live`, { token: reader.token });
    expect(read.body.access).toBe('read');
    const ws = await connect(res.body.url);
    ws.close();
    await expect(connect(res.body.url)).rejects.toMatchObject({ status: 401 });
    await expect(connect(res.body.url.replace(/ticket=.*/, 'ticket=forged'))).rejects.toMatchObject({
      status: 401,
    });
    const secret = await createNote(owner.token, { content: 'mine' });
    expect((await call('POST', `/v1/notes/${secret.id}/live`, { token: reader.token })).status).toBe(404);
  });

  it('a live edit is in GET within 2 s; a REST PATCH reaches live clients as the smallest change', async () => {
    const me = await newUser('Live Editor');
    const note = await createNote(me.token, { content: 'alpha beta gamma\n' });
    const a = client(me.token, note.id);
    const b = client(me.token, note.id);
    await until(() => a.provider.synced && b.provider.synced, 20_000, 'both synced');
    expect(a.text.toString()).toBe('alpha beta gamma\n');
    // The first edit also starts the stream function (locally: bundles it on first use).
    const inGetOf = async (edit: () => void, expected: string) => {
      edit();
      await until(() => b.text.toString() === expected, 5_000, 'b sees a');
      return until(
        async () =>
          (await call('GET', `/v1/notes/${note.id}`, { token: me.token })).body.content === expected,
        15_000,
        'GET holds the live edit',
      );
    };
    await inGetOf(() => a.text.insert(0, 'Live\n'), 'Live\nalpha beta gamma\n');
    const inGet = await inGetOf(() => a.text.insert(0, '# '), '# Live\nalpha beta gamma\n');
    expect(inGet).toBeLessThan(2_000);
    const got = await call('GET', `/v1/notes/${note.id}`, { token: me.token });
    expect(got.body.title).toBe('Live');
    // A cursor in "gamma" stays on its character across a REST change of "beta".
    const cursor = Y.createRelativePositionFromTypeIndex(b.text, 20);
    const patched = await call('PATCH', `/v1/notes/${note.id}`, {
      token: me.token,
      body: { content: '# Live\nalpha BETA gamma\n' },
      headers: { 'If-Match': got.headers.get('etag')! },
    });
    expect(patched.status).toBe(200);
    await until(() => b.text.toString() === '# Live\nalpha BETA gamma\n', 5_000, 'b sees the PATCH');
    await until(() => a.text.toString() === '# Live\nalpha BETA gamma\n', 5_000, 'a sees the PATCH');
    expect(Y.createAbsolutePositionFromRelativePosition(cursor, b.doc)?.index).toBe(20);
    // Versions follow live edits as REST ones.
    const versions = await call('GET', `/v1/notes/${note.id}/versions`, { token: me.token });
    expect(versions.status).toBe(200);
  });

  it("a read connection's edits are refused; a permission change downgrades, trashing closes, within 5 s", async () => {
    const owner = await newUser('Live Sharer');
    const guest = await newUser('Live Guest');
    const note = await createNote(owner.token, {
      content: 'shared\n',
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    });
    const mine = client(owner.token, note.id);
    const theirs = client(guest.token, note.id);
    await until(() => mine.provider.synced && theirs.provider.synced, 20_000, 'both synced');
    theirs.text.insert(0, 'guest ');
    await until(() => mine.text.toString() === 'guest shared\n', 5_000, 'a write connection edits');
    await call('PATCH', `/v1/notes/${note.id}`, { token: owner.token, body: { writePermission: 'owner' } });
    const downgraded = await until(
      () => theirs.errors.some((e) => e.code === 'access_changed'),
      10_000,
      'downgraded',
    );
    expect(downgraded).toBeLessThan(5_000);
    theirs.text.insert(0, 'nope ');
    await until(() => theirs.errors.some((e) => e.code === 'read_only'), 5_000, 'read-only refusal');
    expect(mine.text.toString()).toBe('guest shared\n');
    await call('DELETE', `/v1/notes/${note.id}`, { token: owner.token });
    const closed = await until(
      () => mine.statuses.at(-1) === 'disconnected' && theirs.statuses.at(-1) === 'disconnected',
      10_000,
      'closed',
    );
    expect(closed).toBeLessThan(5_000);
  });

  it('an edit past the content limit is refused with a readable error; others go on', async () => {
    const me = await newUser('Live Limit');
    const note = await createNote(me.token, { content: 'x'.repeat(299 * 1024) });
    const a = client(me.token, note.id);
    await until(() => a.provider.synced, 20_000, 'synced');
    a.text.insert(0, 'y'.repeat(4 * 1024));
    await until(() => a.errors.some((e) => e.code === 'content_too_large'), 5_000, 'refused');
    const got = await call('GET', `/v1/notes/${note.id}`, { token: me.token });
    expect(got.body.content.startsWith('y')).toBe(false);
  });

  it('the stored document is compacted, a large state lives in S3, and what was typed is read back from the store', async () => {
    const me = await newUser('Live Store');
    const big = `${'A long line of a large note, to be stored in S3. '.repeat(1000)}\n`;
    const note = await createNote(me.token, { content: big });
    // Each insert its own stored update (the provider would batch 100 ms of them into one frame).
    const a = client(me.token, note.id, { batchMs: 0 });
    await until(() => a.provider.synced, 20_000, 'synced');
    for (let i = 0; i < COMPACT_AFTER_UPDATES + 5; i += 1) {
      a.text.insert(0, `${i} `);
      // About 30 a second: well within a connection's 60 updates a second.
      await new Promise((r) => setTimeout(r, 30));
    }
    const shortId = note.shortId;
    await until(
      async () => {
        const items = await liveItems(shortId);
        const head = items.find((i) => i.SK === 'HEAD');
        return (
          head &&
          head.rev > 0 &&
          items.filter((i) => String(i.SK).startsWith('U#')).length < COMPACT_AFTER_UPDATES
        );
      },
      15_000 * busyFactor(),
      'compacted',
    );
    const items = await liveItems(shortId);
    const head = items.find((i) => i.SK === 'HEAD')!;
    expect(head.stateKey).toMatch(new RegExp(`^live/${shortId}/`));
    expect(head.state).toBeUndefined();
    for (const item of items)
      expect(JSON.stringify(item).length).toBeLessThan(Math.max(INLINE_STATE_BYTES * 2, 100_000));
    const object = await s3Client().send(
      new GetObjectCommand({ Bucket: config.bucketName, Key: head.stateKey }),
    );
    expect((await object.Body!.transformToByteArray()).length).toBeGreaterThan(INLINE_STATE_BYTES);
    // A client that was never there (a new function instance reads the store) gets every edit.
    a.provider.destroy();
    const fresh = client(me.token, note.id);
    await until(() => fresh.provider.synced, 20_000, 'fresh synced');
    expect(fresh.text.toString()).toBe(a.text.toString());
    await until(
      async () =>
        (await call('GET', `/v1/notes/${note.id}`, { token: me.token })).body.content === a.text.toString(),
      10_000,
      'GET holds every edit',
    );
    // A purged note's document goes, its S3 state too (the stream function calls this on purge).
    fresh.provider.destroy();
    await dropDoc(shortId);
    expect(await liveItems(shortId)).toEqual([]);
    await expect(
      s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key: head.stateKey })),
    ).rejects.toThrow();
  });

  it('webhooks follow live typing: note.updated at most once per note per window, the last at the final version', async () => {
    const me = await newUser('Live Hooked');
    rx = await startReceiver();
    const hook = await call('POST', '/v1/webhooks', {
      token: me.token,
      body: { url: rx.url, scope: { type: 'workspace' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const note = await createNote(me.token, { content: 'typed: ' });
    const a = client(me.token, note.id);
    await until(() => a.provider.synced, 20_000, 'synced');
    const EDITS = 35;
    const started = Date.now();
    for (let i = 0; i < EDITS; i += 1) {
      a.text.insert(a.text.length, `${i} `);
      await new Promise((r) => setTimeout(r, 200)); // 5 edit messages a second, for 7 s
    }
    const typedMs = Date.now() - started;
    const final = a.text.toString();
    let lastChangedAt = 0;
    await until(
      async () => {
        const got = await call('GET', `/v1/notes/${note.id}`, { token: me.token });
        lastChangedAt = got.body.lastChangedAt;
        return got.body.content === final;
      },
      15_000,
      'GET holds the final text',
    );
    const updates = () =>
      rx!.received
        .map((r) => ({ ...JSON.parse(r.body), webhookId: r.headers['webhook-id'] }))
        .filter((e) => e.type === 'note.updated' && e.data.note.id === note.id);
    // The last one is the note at its final text (the last write's lastChangedAt).
    await until(
      () => updates().at(-1)?.data.note.lastChangedAt === lastChangedAt,
      30_000,
      'the last note.updated',
    );
    // One per window of LIVE_WINDOW_MS at most: distinct windows, as many as the typing spanned.
    const windows = updates().map((e) => Math.floor(e.createdAt / LIVE_WINDOW_MS));
    expect(new Set(windows).size).toBe(windows.length);
    expect(windows.length).toBeLessThanOrEqual(Math.ceil(typedMs / LIVE_WINDOW_MS) + 1);
    expect(new Set(updates().map((e) => e.webhookId)).size).toBe(windows.length);
    expect(updates().every((e) => e.data.changes.includes('content'))).toBe(true);
    expect(updates().every((e) => e.id.startsWith(`msg_live-${note.shortId}-`))).toBe(true);
    // A REST write is still an event of its own, routed from its stream record (no window).
    const patched = await call('PATCH', `/v1/notes/${note.id}`, {
      token: me.token,
      body: { content: 'by REST' },
    });
    expect(patched.status).toBe(200);
    await until(() => updates().length > windows.length, 15_000, "the REST write's note.updated");
    const rest = updates().at(-1);
    expect(rest.data).toMatchObject({ note: { title: 'Untitled' }, changes: ['content'] });
    expect(rest.data.note.lastChangedAt).toBeGreaterThan(lastChangedAt);
    expect(rest.id).not.toMatch(/^msg_live-/);
  });

  it("leaving a team closes the member's connections to its notes within 5 s", async () => {
    const owner = await newUser('Live Team Owner');
    const member = await newUser('Live Team Member');
    const team = await newTeam(owner, [member]);
    const note = await createNote(member.token, { content: 'team text\n' }, team.path);
    const theirs = client(member.token, note.id);
    await until(() => theirs.provider.synced, 20_000, 'synced');
    // The membership removed (as an admin removes it): both of its items.
    for (const Key of [
      identityKeys.membershipOfTeam(team.path, member.id),
      identityKeys.membershipOfUser(member.id, team.path),
    ])
      await documentClient().send(new DeleteCommand({ TableName: config.tableName, Key }));
    const closed = await until(() => theirs.statuses.at(-1) === 'disconnected', 10_000, 'closed');
    expect(closed).toBeLessThan(5_000);
    expect(theirs.errors.map((e) => e.code)).toContain('access_changed');
  });
});

describe('live editing stores (DynamoDB Local, the S3 emulator)', () => {
  it('a note whose stream work throws holds no other note back and lands in the live dead-letter queue', async () => {
    const me = await newUser('Live Poison');
    const poisoned = await createNote(me.token, { content: 'poisoned' });
    const healthy = await createNote(me.token, { content: 'healthy\n' });
    const b = client(me.token, healthy.id);
    await until(() => b.provider.synced, 20_000, 'synced');
    // Warm the stream function (locally it is bundled on first use).
    b.text.insert(0, 'a ');
    const get = async () => (await call('GET', `/v1/notes/${healthy.id}`, { token: me.token })).body.content;
    await until(async () => (await get()) === 'a healthy\n', 20_000, 'warm');
    // A document no load can read (its compacted state names an S3 object that is not there):
    // every flush of that note throws. (A stored update Yjs cannot apply is left out by the load.)
    expect(await createDoc(poisoned.shortId, seedUpdate('poisoned'), 1)).toBe(true);
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: liveKeys.head(poisoned.shortId),
        UpdateExpression: 'SET stateKey = :k REMOVE #state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':k': `live/${poisoned.shortId}/missing` },
      }),
    );
    await appendUpdate(poisoned.shortId, new Uint8Array([200, 200, 200, 200, 1, 2, 3]), me.id);
    b.text.insert(0, 'b ');
    const inGet = await until(async () => (await get()) === 'b a healthy\n', 15_000, 'healthy note in GET');
    expect(inGet).toBeLessThan(2_000);
    // Later edits are not held behind the poisoned record's retries either.
    await appendUpdate(poisoned.shortId, new Uint8Array([200, 200, 200, 201]), me.id);
    b.text.insert(0, 'c ');
    expect(await until(async () => (await get()) === 'c b a healthy\n', 15_000, 'again')).toBeLessThan(3_000);
    const sqs = new SQSClient({});
    const QueueUrl = process.env.WEBHOOK_DLQ_URL!.replace(/[^/]+$/, 'NotesLiveDeadLetterQueue');
    try {
      let found = false;
      await until(
        async () => {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
          );
          found ||= Messages.some(
            (m) => JSON.parse(m.Body!).requestContext?.condition === 'RetryAttemptsExhausted',
          );
          return found;
        },
        20_000,
        'the poisoned record in the dead-letter queue',
      );
    } finally {
      sqs.destroy();
    }
  });

  it('a ticket is taken once', async () => {
    const hash = `h-${Date.now()}-${Math.random()}`;
    await putTicket({
      hash,
      userId: 'u',
      noteId: 'n'.repeat(22),
      shortId: 'n'.repeat(10),
      expiresAt: Date.now() + 60_000,
    });
    const [first, second] = await Promise.all([takeTicket(hash), takeTicket(hash)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
  });

  it("a client id's awareness is claimed once per note: by its first connection, or a later one of the same user", async () => {
    const shortId = `a${Date.now().toString(36)}`.slice(0, 10).padEnd(10, 'x');
    const connection = (connectionId: string, userId: string) => ({
      connectionId: `${connectionId}-${shortId}`,
      userId,
      noteId: 'n'.repeat(22),
      shortId,
      teamPath: null,
      access: 'write' as const,
      connectedAt: Date.now(),
    });
    const [mine, theirs, mineAgain] = [connection('a', 'u1'), connection('b', 'u2'), connection('c', 'u1')];
    for (const c of [mine, theirs, mineAgain]) await addConnection(c);
    expect(await claimClientIds(mine, [11, 12])).toEqual(expect.arrayContaining([11, 12]));
    expect(await claimClientIds(theirs, [11, 13])).toEqual([13]);
    expect(await claimClientIds(mineAgain, [12])).toEqual([12]);
    expect((await getConnection(mine.connectionId))?.clientIds?.sort()).toEqual([11, 12]);
    expect((await getConnection(theirs.connectionId))?.clientIds).toEqual([13]);
    // Kept through an access change and a close (the record $default reads).
    await setConnectionAccess((await getConnection(mine.connectionId))!, 'read');
    await markConnectionClosed((await getConnection(mine.connectionId))!);
    expect((await getConnection(mine.connectionId))?.clientIds?.sort()).toEqual([11, 12]);
    await dropDoc(shortId);
  });

  it("the note's room is taken atomically: of four writers at once, those that fit; a calibration gives back", async () => {
    const shortId = `r${Date.now().toString(36)}`.slice(0, 10).padEnd(10, 'x');
    const strict = { init: 20_000, strict: true };
    const won = await Promise.all([1, 2, 3, 4].map(() => reserveRoom(shortId, 8_000, strict)));
    expect(won.filter(Boolean)).toHaveLength(2);
    expect(await reserveRoom(shortId, 1_000, { init: 0, strict: false })).toBe(true); // a REST change
    expect(await reserveRoom(shortId, 4_000, strict)).toBe(false); // 3,000 left
    // The flush's read: 17,000 bytes reserved were stored, text deleted since: 10,000 of room.
    await calibrateRoom(shortId, 10_000 + 17_000);
    expect(await reserveRoom(shortId, 10_001, strict)).toBe(false);
    expect(await reserveRoom(shortId, 10_000, strict)).toBe(true);
    await dropDoc(shortId);
  });

  it("a grant's unused rest comes back once every grant is long past, not before", async () => {
    const shortId = `g${Date.now().toString(36)}`.slice(0, 10).padEnd(10, 'x');
    const room = async () =>
      (
        await documentClient().send(
          new GetCommand({ TableName: config.tableName, Key: liveKeys.room(shortId) }),
        )
      ).Item?.room;
    // A grant of 9,000 bytes (100 used by a stored update) that may still be in use: nothing back.
    const live = Date.now() + 60_000;
    expect(await reserveRoom(shortId, 9_000, { init: 20_000, strict: true, until: live })).toBe(true);
    await calibrateRoom(shortId, 20_000 + 100, 100);
    expect(await room()).toBe(11_100);
    // The latest grant long past: the room is the limit less the content (100 bytes), whatever grants left.
    const past = Date.now() - 2 * GRANT_SETTLE_MS;
    expect(await reserveRoom(shortId, 9_000, { init: 20_000, strict: true, until: past })).toBe(true);
    await calibrateRoom(shortId, 20_000 + 100, 100);
    expect(await room()).toBe(20_000);
    expect(await reserveRoom(shortId, 20_000, { init: 0, strict: true })).toBe(true);
    expect(await reserveRoom(shortId, 1, { init: 0, strict: true })).toBe(false);
    await dropDoc(shortId);
  });

  it('a carried live window keeps the earliest one handed on, and goes only once it is announced', async () => {
    const shortId = `w${Date.now().toString(36)}`.slice(0, 10).padEnd(10, 'x');
    const noteTitled = (title: string) => ({ title }) as never;
    await carryWindow({ shortId, endsAt: 10_000, before: noteTitled('second') });
    await carryWindow({ shortId, endsAt: 5_000, before: noteTitled('first') });
    await carryWindow({ shortId, endsAt: 15_000, before: noteTitled('third') });
    expect(await carriedWindow(shortId)).toEqual({ shortId, endsAt: 5_000, before: { title: 'first' } });
    await dropCarriedWindow(shortId, 10_000); // not the one kept
    expect((await carriedWindow(shortId))?.endsAt).toBe(5_000);
    await dropCarriedWindow(shortId, 5_000);
    expect(await carriedWindow(shortId)).toBeUndefined();
  });

  it('compaction is race-free: of two, one wins; an update stored after the read is kept', async () => {
    const shortId = `c${Date.now().toString(36)}`.slice(0, 10).padEnd(10, 'x');
    const seed = seedUpdate('base');
    expect(await createDoc(shortId, seed, 1)).toBe(true);
    expect(await createDoc(shortId, seedUpdate('other'), 1)).toBe(false);
    const edit = (text: string) => {
      const doc = docOf([seed]);
      let update: Uint8Array | undefined;
      doc.on('update', (u: Uint8Array) => {
        update = u;
      });
      doc.getText('content').insert(0, text);
      return update!;
    };
    await appendUpdate(shortId, edit('one '), 'u');
    const read = (await loadDoc(shortId, { consistent: true }))!;
    await appendUpdate(shortId, edit('two '), 'u'); // after the compactions read
    const state = (d: typeof read) => {
      const doc = docOf([d.state, ...d.updates.map((u) => u.update)]);
      return {
        rev: d.rev,
        keys: d.updates.map((u) => u.key),
        bytes: Y.encodeStateAsUpdate(doc),
      };
    };
    const merged = state(read);
    const results = await Promise.all([
      compactDoc(shortId, { rev: merged.rev, keys: merged.keys, restVersion: 1, settled: 0 }, merged.bytes),
      compactDoc(shortId, { rev: merged.rev, keys: merged.keys, restVersion: 1, settled: 0 }, merged.bytes),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const after = (await loadDoc(shortId, { consistent: true }))!;
    expect(after.rev).toBe(1);
    expect(after.updates).toHaveLength(1);
    const text = textOf(docOf([after.state, ...after.updates.map((u) => u.update)]));
    expect(['one two base', 'two one base']).toContain(text);
  });
});
