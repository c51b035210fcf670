// The webhook marker (docs/architecture.md, "Webhook events"): the stream's filter passes only items
// of workspaces with a webhook, so a write in a workspace without one never invokes the event router
// and costs no extra DynamoDB request. Through HTTP and the runner, against DynamoDB Local's real
// stream: a second reader of that stream applies the router's event source mapping (the template's
// FilterCriteria, the runner's StreamMapping) and counts the records of this test's notes it would
// hand to the router (each batch of them is one router invocation).
import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { passesFilters } from '../../infra/local/event-filter.ts';
import { eventSourcesOf } from '../../infra/local/event-sources.ts';
import type { Outcome } from '../../infra/local/lambdas.ts';
import { localClientConfig } from '../../infra/local/services.ts';
import { LocalQueues } from '../../infra/local/sqs.ts';
import { startStreamPoller } from '../../infra/local/stream-poller.ts';
import { loadTemplate } from '../../infra/local/template.ts';
import { config } from '../../lib/config.ts';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import { stampNotes } from '../../lib/notes/webhooks/adapters/dynamo-hook-marks.ts';
import { DynamoNotesStore } from '../../lib/notes/notes/adapters/dynamo-notes.ts';
import { noteRecord } from '../support/note-record.ts';
import { newTeam, newUser, type TestUser } from '../support/identity.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call, createNote, local } from './helpers.ts';

const ROUTER = 'NotesRouteWebhookEventsFunction';
const routerSource = () => eventSourcesOf(loadTemplate()).streams.find((s) => s.functionId === ROUTER)!;

const receivers: Receiver[] = [];
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all([...receivers.map((r) => r.close()), ...stops.map((s) => s())]);
});
const receiver = async () => {
  const r = await startReceiver();
  receivers.push(r);
  return r;
};

/** The note a stream record is about (its partition: NOTE#, NOTEVERSIONS#, NOTECOMMENTS# + shortId). */
const shortIdOf = (r: DynamoDBRecord) => String(r.dynamodb?.Keys?.PK?.S ?? '').split('#')[1];

/** Reads the table's stream from now on as the router's event source mapping does; the records it passes. */
async function watchRouter() {
  const passed: DynamoDBRecord[] = [];
  const endpoint = process.env.LOCAL_DYNAMODB_ENDPOINT!;
  const poller = await startStreamPoller({
    endpoint,
    tableName: config.tableName,
    sources: [{ ...routerSource(), batchSize: 1000 }],
    clientConfig: localClientConfig(endpoint),
    queues: new LocalQueues(),
    log: () => {},
    invoke: async (_id, _handler, event): Promise<Outcome> => {
      passed.push(...(event as { Records: DynamoDBRecord[] }).Records);
      return { kind: 'ok', result: {} as never, meter: { requests: 0, capacity: 0, operations: [] } };
    },
  });
  stops.push(() => poller.stop());
  return {
    /** Waits for the stream to catch up, then the passed records of these notes. */
    async passedFor(shortIds: string[]) {
      await new Promise((r) => setTimeout(r, 2500));
      return passed.filter((r) => shortIds.includes(shortIdOf(r)));
    },
  };
}

/** A call's own DynamoDB requests (the runner's header), without a rate-limit window's start. */
function requestsOf(res: Awaited<ReturnType<typeof call>>): number {
  const used = Number(res.headers.get('x-local-dynamo-requests'));
  const windowStart =
    Number(res.headers.get('x-ratelimit-userremaining')) ===
    Number(res.headers.get('x-ratelimit-userlimit')) - 1;
  return used - (windowStart ? 1 : 0);
}

const hookFor = async (user: TestUser, url: string, teamPath?: string) => {
  const res = await call('POST', teamPath ? `/v1/teams/${teamPath}/webhooks` : '/v1/webhooks', {
    token: user.token,
    body: { url, scope: { type: 'workspace' } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
};

/**
 * Every kind of write the pipeline has events for, on two new notes (the second trashed and restored:
 * a note in the trash by the time its version or comment is routed has no such event); each call's
 * requests, by step.
 */
async function everyWrite(user: TestUser, teamPath?: string) {
  const cost: Record<string, number> = {};
  const ok = async (step: string, method: string, path: string, body?: unknown, status = 200) => {
    const res = await call(method, path, { token: user.token, body });
    expect(res.status, `${step}: ${res.text}`).toBe(status);
    cost[step] = requestsOf(res);
    return res.body;
  };
  const base = teamPath ? `/v1/teams/${teamPath}/notes` : '/v1/notes';
  const note = await ok('create', 'POST', base, { content: '# Marked?\nSome text.' });
  const at = `${base}/${note.id}`;
  await ok('update', 'PATCH', at, { title: 'Renamed', content: '# Marked?\nMore text.' });
  await ok('version', 'POST', `/v1/notes/${note.id}/versions`, { name: 'Named' }, 201);
  const head = await ok('comment', 'POST', `/v1/notes/${note.id}/comments`, { body: 'A thread' }, 201);
  await ok('resolve', 'PUT', `/v1/notes/${note.id}/comments/${head.id}/resolution`);
  await ok('reopen', 'DELETE', `/v1/notes/${note.id}/comments/${head.id}/resolution`);
  const other = await ok('create another', 'POST', base, { content: '# To the trash' });
  await ok('trash', 'DELETE', `${base}/${other.id}`, undefined, 204);
  await ok('restore', 'PUT', `/v1/trash/${other.id}/restore`, undefined, 204);
  return { shortIds: [note.shortId as string, other.shortId as string], cost };
}

describe('the webhook marker: the stream filter drops the writes of workspaces without webhooks', {
  timeout: 180_000,
}, () => {
  it('writes in workspaces without webhooks never reach the router, and cost what they cost with one', async () => {
    const plain = await newUser('Unhooked');
    const hooked = await newUser('Hooked');
    const rx = await receiver();
    const hook = await hookFor(hooked, rx.url);
    const watch = await watchRouter();

    const without = await everyWrite(plain);
    const withHook = await everyWrite(hooked);
    const team = await newTeam(plain);
    const teamNote = await createNote(plain.token, { content: '# Team' }, team.path);

    expect(await watch.passedFor([...without.shortIds, teamNote.shortId])).toEqual([]);
    // The control: the same writes with a webhook pass, and are delivered (9 events).
    expect((await watch.passedFor(withHook.shortIds)).length).toBeGreaterThanOrEqual(9);
    const got = await rx.waitFor(9);
    const types = got.map((r) => (new Webhook(hook.secret).verify(r.body, r.headers as never) as any).type);
    expect(types.sort()).toEqual(
      [
        'note.created',
        'note.created',
        'note.updated',
        'version.created',
        'comment.created',
        'comment.resolved',
        'comment.reopened',
        'note.deleted',
        'note.restored',
      ].sort(),
    );
    // The marker is carried by the writes themselves: not one more request, with or without webhook.
    if (local) {
      expect(without.cost).toEqual(withHook.cost);
      expect(without.cost.create).toBe(4);
    }
  });

  it("a workspace's first webhook stamps its notes: right after the 201, every kind of write delivers", async () => {
    const me = await newUser('First Hook');
    const old = await createNote(me.token, { content: '# Old\nText to comment on.' });
    const trashed = await createNote(me.token, { content: '# Trashed' });
    const head = (
      await call('POST', `/v1/notes/${old.id}/comments`, { token: me.token, body: { body: 'Before' } })
    ).body;
    await call('PATCH', `/v1/notes/${old.id}`, { token: me.token, body: { content: '# Old\nEdited.' } });
    expect((await call('DELETE', `/v1/notes/${trashed.id}`, { token: me.token })).status).toBe(204);
    const rx = await receiver();
    const hook = await hookFor(me, rx.url);

    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await call(method, path, { token: me.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body;
    };
    await ok('PATCH', `/v1/notes/${old.id}`, { title: 'Old, renamed' });
    const fresh = await createNote(me.token, { content: '# Fresh' });
    await ok('POST', `/v1/notes/${old.id}/comments`, { body: 'After' });
    await ok('PUT', `/v1/notes/${old.id}/comments/${head.id}/resolution`);
    // The system version of the edit before the webhook, named in place (a MODIFY of an old item).
    await ok('POST', `/v1/notes/${old.id}/versions`, { name: 'Named later' });
    await ok('PUT', `/v1/trash/${trashed.id}/restore`);
    await ok('DELETE', `/v1/notes/${fresh.id}`);

    const got = await rx.waitFor(7);
    await new Promise((r) => setTimeout(r, 1500));
    const events = rx.received.map((r) => new Webhook(hook.secret).verify(r.body, r.headers as never) as any);
    expect(events.map((e) => `${e.type} ${e.data.note.id}`).sort()).toEqual(
      [
        `note.updated ${old.id}`,
        `note.created ${fresh.id}`,
        `comment.created ${old.id}`,
        `comment.resolved ${old.id}`,
        `version.created ${old.id}`,
        `note.restored ${trashed.id}`,
        `note.deleted ${fresh.id}`,
      ].sort(),
    );
    expect(got).toHaveLength(7);
    // The stamp is internal: never in a response.
    expect((await ok('GET', `/v1/notes/${old.id}`)) as object).not.toHaveProperty('hooked');
  });

  it("a team's first webhook marks every member, and members added later", async () => {
    const owner = await newUser('Team Owner');
    const member = await newUser('Team Member');
    const team = await newTeam(owner, [member]);
    const old = await createNote(member.token, { content: '# Before' }, team.path);
    const rx = await receiver();
    const hook = await hookFor(owner, rx.url, team.path);
    const late = await newUser('Late Member');
    await fullIdentity().addMember(team.path, late.id);

    const patched = await call('PATCH', `/v1/teams/${team.path}/notes/${old.id}`, {
      token: member.token,
      body: { title: 'After' },
    });
    expect(patched.status, patched.text).toBe(200);
    const byMember = await createNote(member.token, { content: '# By a member' }, team.path);
    const byLate = await createNote(late.token, { content: '# By a late member' }, team.path);

    await rx.waitFor(3);
    await new Promise((r) => setTimeout(r, 1500));
    const events = rx.received.map((r) => new Webhook(hook.secret).verify(r.body, r.headers as never) as any);
    expect(events.map((e) => `${e.type} ${e.data.note.id}`).sort()).toEqual(
      [`note.updated ${old.id}`, `note.created ${byMember.id}`, `note.created ${byLate.id}`].sort(),
    );
    for (const e of events) expect(e.workspace).toEqual({ type: 'team', path: team.path });
  });

  it('after the last webhook is deleted, new notes and their comments no longer reach the router', async () => {
    const me = await newUser('Unhooking');
    const owner = await newUser('Unhooking Owner');
    const team = await newTeam(owner, [me]);
    const rx = await receiver();
    const first = await hookFor(me, rx.url);
    const second = await hookFor(me, rx.url);
    const teamHook = await hookFor(owner, rx.url, team.path);
    const before = await createNote(me.token, { content: '# Stamped' });
    await rx.waitFor(2); // to both webhooks (routed before one of them is deleted)

    // One of two deleted: still marked (the next note is delivered).
    expect((await call('DELETE', `/v1/webhooks/${first.id}`, { token: me.token })).status).toBe(204);
    const still = await createNote(me.token, { content: '# Still delivered' });
    await rx.waitFor(3); // `before` to both webhooks, `still` to the second
    expect((await call('DELETE', `/v1/webhooks/${second.id}`, { token: me.token })).status).toBe(204);
    const del = await call('DELETE', `/v1/teams/${team.path}/webhooks/${teamHook.id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(204);

    const watch = await watchRouter();
    const after = await createNote(me.token, { content: '# Unhooked' });
    await call('POST', `/v1/notes/${after.id}/comments`, { token: me.token, body: { body: 'Quiet' } });
    const teamNote = await createNote(me.token, { content: '# Team, unhooked' }, team.path);
    expect(await watch.passedFor([after.shortId, teamNote.shortId])).toEqual([]);
    // Notes stamped while it had webhooks keep their stamp (docs/architecture.md): one router
    // invocation per batch that finds no webhook, nothing delivered.
    await call('PATCH', `/v1/notes/${before.id}`, { token: me.token, body: { title: 'Stamped, renamed' } });
    expect((await watch.passedFor([before.shortId])).length).toBe(1);
    expect(rx.received.map((r) => JSON.parse(r.body).data.note.id).sort()).toEqual(
      [before.id, before.id, still.id].sort(),
    );
  });
});

describe('stamps against DynamoDB Local: a note save never drops one', () => {
  it('a stamp between the read and the save makes the save a lost race; the retry keeps the stamp', async () => {
    const store = new DynamoNotesStore();
    const owner = `u-${randomUUID()}`;
    const shortId = randomUUID().replace(/-/g, '').slice(0, 22);
    const n = noteRecord({ id: `${shortId}x`, shortId, ownerId: owner, userPath: owner });
    await store.createNote(n, '# hi', owner);
    const read = (await store.getNote(shortId))!;
    expect(read.note).not.toHaveProperty('hooked');
    expect(await stampNotes({ userId: owner })).toBe(1);
    expect(await stampNotes({ userId: owner })).toBe(0); // only the unstamped ones
    await expect(
      store.saveNote(read, { ...read.note, title: 'lost', version: 2 }, undefined, owner),
    ).rejects.toMatchObject({ reason: 'version' });
    const fresh = (await store.getNote(shortId))!;
    expect(fresh.note).toMatchObject({ hooked: true, version: 1 }); // the ETag did not change
    await store.saveNote(fresh, { ...fresh.note, title: 'kept', version: 2 }, undefined, owner);
    expect((await store.getNote(shortId))!.note).toMatchObject({ hooked: true, title: 'kept' });
  });
});

describe("the router's FilterCriteria (template.yaml), as the runner evaluates them", () => {
  const filters = routerSource().filters;
  const rec = (
    eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
    item: Record<string, unknown>,
    old?: Record<string, unknown>,
  ) =>
    ({
      eventName,
      dynamodb: {
        Keys: marshall({ PK: item.PK, SK: item.SK }),
        ...(eventName === 'REMOVE' ? {} : { NewImage: marshall(item, { removeUndefinedValues: true }) }),
        ...(old ? { OldImage: marshall(old, { removeUndefinedValues: true }) } : {}),
      },
    }) as unknown as DynamoDBRecord;
  const meta = (extra: Record<string, unknown> = {}) => ({
    PK: 'NOTE#abc',
    SK: 'NOTE#META',
    type: 'note',
    version: 2,
    ...extra,
  });
  const version = (extra: Record<string, unknown>) => ({
    PK: 'NOTEVERSIONS#abc',
    SK: 'VERSION#1',
    type: 'note-version',
    ...extra,
  });
  const comment = (extra: Record<string, unknown>) => ({
    PK: 'NOTECOMMENTS#abc',
    SK: 'COMMENT#1',
    type: 'note-comment',
    ...extra,
  });
  const resolved = { isThreadHead: true, threadState: { status: 'hidden', actedAt: 5 } };
  const H = { hooked: true };

  it('passes the marked changes the catalogue has events for', () => {
    for (const r of [
      rec('INSERT', meta(H)),
      rec('MODIFY', meta(H), meta(H)),
      rec('MODIFY', meta({ ...H, deletedAt: 1 }), meta(H)), // to the trash
      rec('MODIFY', meta(H), meta({ ...H, deletedAt: 1 })), // back
      rec('INSERT', version({ ...H, nameSource: 'user' })),
      rec('MODIFY', version({ ...H, nameSource: 'user' }), version({ nameSource: 'system' })),
      rec('INSERT', comment(H)),
      rec(
        'MODIFY',
        comment({ ...H, ...resolved }),
        comment({ isThreadHead: true, threadState: { status: 'open', actedAt: null } }),
      ),
    ])
      expect(passesFilters(filters, r), JSON.stringify(r)).toBe(true);
  });

  it('drops the same changes unmarked, and what is never an event', () => {
    for (const r of [
      rec('INSERT', meta()),
      rec('MODIFY', meta(), meta()),
      rec('MODIFY', meta({ deletedAt: 1 }), meta()),
      rec('MODIFY', meta(), meta({ deletedAt: 1 })),
      rec('MODIFY', meta({ hooked: false }), meta()),
      rec('INSERT', version({ nameSource: 'user' })),
      rec('MODIFY', version({ nameSource: 'user' }), version({ nameSource: 'system' })),
      rec('INSERT', comment({})),
      rec('MODIFY', comment(resolved), comment({ isThreadHead: true })),
      rec('INSERT', version({ ...H, nameSource: 'system' })), // auto-saves, even marked
      rec('REMOVE', meta(H), meta(H)), // purges and deletes
      rec('INSERT', { PK: 'NOTE#abc', SK: 'NOTE#CONTENT', type: 'note-content', ...H }),
    ])
      expect(passesFilters(filters, r), JSON.stringify(r)).toBe(false);
  });

  it('passes pings without a mark (a webhook item exists only where there are webhooks)', () => {
    const hook = { PK: 'WEBHOOKS#USER#u', SK: 'WEBHOOK#h', type: 'webhook', pingId: 'p' };
    expect(passesFilters(filters, rec('MODIFY', hook, { ...hook, pingId: undefined }))).toBe(true);
    expect(filters).toHaveLength(5); // Lambda's default quota per event source mapping
  });
});
