// The webhook event pipeline's domain, without AWS: which table changes are events, which
// webhooks they go to, the retry schedule, and where a delivery may go.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_DELAYS } from '../../../lib/config.ts';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  checkDestination,
  isPublicAddress,
} from '../../../lib/notes/webhooks/adapters/destination-policy.ts';
import { emfLine } from '../../../lib/notes/webhooks/adapters/emf-metrics.ts';
import { postDelivery } from '../../../lib/notes/webhooks/adapters/http-poster.ts';
import { eventsOf, type NoteState } from '../../../lib/notes/webhooks/events/catalogue.ts';
import {
  type DeliveryPorts,
  deliver,
  retryDelaySeconds,
} from '../../../lib/notes/webhooks/events/delivery.ts';
import { type DeliveryJob, routeChanges } from '../../../lib/notes/webhooks/events/router.ts';
import type { FolderRecord } from '../../../lib/notes/folders/folders.ts';
import type { NoteChanges, NoteRecord } from '../../../lib/notes/kernel/model.ts';
import type { DeliveryRecord, WebhookRecord } from '../../../lib/notes/webhooks/webhooks.ts';
import { passesFilters } from '../../../infra/local/event-filter.ts';
import { loadTemplate } from '../../../infra/local/template.ts';
import { CHANGE_CASES, START } from '../../support/note-changes.ts';
import { noteRecord, webhookRecord } from '../../support/note-record.ts';
import { notesWorld } from './fixture.ts';

const note = noteRecord;
const state = (over: Partial<NoteRecord> = {}, deletedAt?: number): NoteState => ({
  note: note(over),
  ...(deletedAt ? { deletedAt } : {}),
});
const hook = webhookRecord;
const folder = (id: string, parentFolderId: string | null): FolderRecord => ({
  id,
  name: id,
  description: null,
  icon: null,
  color: null,
  parentFolderId,
  createdAt: 1,
  updatedAt: 1,
  noteCount: 0,
});

describe('event catalogue', () => {
  const types = (before?: NoteState, after?: NoteState) =>
    eventsOf({ kind: 'note', id: 'e', before, after }).map((e) => e.type);

  it('a new note is note.created', () => expect(types(undefined, state())).toEqual(['note.created']));
  it('into the trash is note.deleted, out of it note.restored', () => {
    expect(types(state(), state({ version: 2 }, 5000))).toEqual(['note.deleted']);
    expect(types(state({ version: 2 }, 5000), state({ version: 3 }))).toEqual(['note.restored']);
  });
  it('the purge (TTL removal) and changes inside the trash are no events', () => {
    expect(types(state({}, 5000), undefined)).toEqual([]);
    expect(types(state({}, 5000), state({ version: 2 }, 6000))).toEqual([]);
  });
  it('note.updated names what changed: title, tags, permissions, folder, content', () => {
    const [e] = eventsOf({
      kind: 'note',
      id: 'e',
      before: state(),
      after: state({
        version: 2,
        title: 'N',
        tags: ['x'],
        readPermission: 'guest',
        parentFolderId: 'f',
        lastChangedAt: 2,
      }),
    });
    expect(e.type).toBe('note.updated');
    expect(e.changes).toEqual(['title', 'tags', 'readPermission', 'parentFolderId']);
  });
  it('content is told by contentVersion, also on items written before it was kept', () => {
    const changes = (before: Partial<NoteRecord>, after: Partial<NoteRecord>) =>
      eventsOf({ kind: 'note', id: 'e', before: state(before), after: state({ version: 2, ...after }) })[0]
        ?.changes;
    // An old item (no contentVersion): the write that changes the content sets it.
    expect(changes({}, { contentVersion: 2, title: 'N' })).toEqual(['content', 'title']);
    expect(changes({}, { title: 'N' })).toEqual(['title']);
    expect(changes({ contentVersion: 1 }, { contentVersion: 1, title: 'N' })).toEqual(['title']);
    // Neither the last editor nor lastChangedAt says anything about the content.
    expect(changes({ contentVersion: 1 }, { contentVersion: 1, lastChangedAt: 2 })).toBeUndefined();
  });
  describe('note.updated names exactly what one PATCH changed (the service writes, the catalogue reads)', () => {
    for (const c of CHANGE_CASES)
      it(`${c.name}, by ${c.by === 'owner' ? 'the owner (the last editor)' : 'another user'}`, async () => {
        const w = await notesWorld();
        const created = await w.notes.createNote(w.owner, { ...START });
        w.clock.advance(1000);
        const updated = await w.notes.updateNote(w[c.by], created.note.id, c.patch as NoteChanges);
        const events = eventsOf({
          kind: 'note',
          id: 'e',
          before: { note: created.note },
          after: { note: updated.note },
        });
        expect(events.map((e) => [e.type, e.changes])).toEqual([['note.updated', c.changes]]);
      });
  });
  it('a write that changed no version is no event', () => expect(types(state(), state())).toEqual([]));
  it('a new pingId on a webhook is a ping for that webhook only', () => {
    const [e] = eventsOf({
      kind: 'webhook',
      id: 'e',
      before: hook(),
      after: hook({ pingId: 'p', lastPingAt: 9 }),
    });
    expect(e).toMatchObject({ type: 'ping', createdAt: 9, onlyHook: { id: 'h1' } });
    expect(
      eventsOf({
        kind: 'webhook',
        id: 'e',
        before: hook({ pingId: 'p' }),
        after: hook({ pingId: 'p', name: 'x' }),
      }),
    ).toEqual([]);
  });
});

describe('event router', () => {
  const route = async (hooks: WebhookRecord[], after: NoteState, folders: FolderRecord[] = []) => {
    const jobs: DeliveryJob[] = [];
    const calls = { hooks: 0, folders: 0 };
    await routeChanges([{ kind: 'note', id: 'evt', after }], {
      hooksOf: async () => {
        calls.hooks += 1;
        return hooks;
      },
      foldersOf: async () => {
        calls.folders += 1;
        return folders;
      },
      userPathOf: async () => 'alice',
      openWindows: async () => {},
      noteOf: async () => undefined,
      enqueue: async (j) => {
        jobs.push(...j);
      },
    });
    return { jobs, calls };
  };
  const tree = [folder('a', null), folder('b', 'a'), folder('c', null)];

  it('a folder scope covers its sub-folders, not its siblings', async () => {
    const scoped = [
      hook({ id: 'ha', scope: { type: 'folder', folderId: 'a' } }),
      hook({ id: 'hc', scope: { type: 'folder', folderId: 'c' } }),
    ];
    const { jobs } = await route(scoped, state({ parentFolderId: 'b' }), tree);
    expect(jobs.map((j) => j.hookId)).toEqual(['ha']);
    expect(JSON.parse(jobs[0].body).data.note.folderPaths.map((p: { id: string }) => p.id)).toEqual([
      'a',
      'b',
    ]);
  });
  it('an inactive webhook in scope gets its job (the delivery logs it as skipped)', async () => {
    const off = hook({ id: 'off', active: false, scope: { type: 'folder', folderId: 'a' } });
    const { jobs } = await route(
      [off, hook({ id: 'other', scope: { type: 'folder', folderId: 'c' } })],
      state({ parentFolderId: 'b' }),
      tree,
    );
    expect(jobs.map((j) => j.hookId)).toEqual(['off']);
  });
  it('a workspace without webhooks costs one read and no folder read', async () => {
    const { jobs, calls } = await route([], state({ parentFolderId: 'b' }), tree);
    expect(jobs).toEqual([]);
    expect(calls).toEqual({ hooks: 1, folders: 0 });
  });
  it('the body is {id, type, createdAt, workspace, data: {note}} with the note as listed', async () => {
    const { jobs } = await route([hook()], state());
    const body = JSON.parse(jobs[0].body);
    expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'workspace', 'data']);
    expect(body).toMatchObject({
      id: 'evt',
      type: 'note.created',
      workspace: { type: 'user', path: 'alice' },
    });
    expect(body.data.note).not.toHaveProperty('content');
    expect(jobs[0]).toMatchObject({ eventId: 'evt', attempt: 1, attemptKind: 'event' });
  });
});

describe('delivery', () => {
  it('the default schedule: first retry within a minute, over 24 h in all even with -20 % jitter', () => {
    const delays = DEFAULT_WEBHOOK_RETRY_DELAYS.split(',').map(Number);
    expect(retryDelaySeconds(1, delays, 0)).toBe(24);
    expect(retryDelaySeconds(1, delays, 0.999)).toBe(36);
    expect((0.8 * delays.reduce((a, b) => a + b, 0)) / 3600).toBeGreaterThanOrEqual(24);
    expect(retryDelaySeconds(delays.length + 1, delays, 0.5)).toBeUndefined();
  });

  const ports = (over: Partial<DeliveryPorts> = {}) => {
    const log: DeliveryRecord[] = [];
    const requeued: [DeliveryJob, number][] = [];
    const dead: DeliveryJob[] = [];
    const clock = new FixedClock(1_000_000);
    const p: DeliveryPorts = {
      hook: async () => hook(),
      openSecret: async () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      checkDestination: async () => ({ ok: true, address: '93.184.216.34', family: 4 }),
      sign: () => 'v1,sig',
      post: async () => ({ status: 500 }),
      record: async (d) => {
        log.push(d);
      },
      setPolicy: async () => {},
      requeue: async (j, s) => {
        requeued.push([j, s]);
      },
      deadLetter: async (j) => {
        dead.push(j);
      },
      metric: () => {},
      clock,
      ids: sequentialIds(),
      random: () => 0.5,
      settings: { retryDelays: () => [30, 3600], attemptTimeoutMs: () => 1000, retentionDays: () => 30 },
      ...over,
    };
    return { p, log, requeued, dead, clock };
  };
  const job: DeliveryJob = {
    hookId: 'h1',
    owner: { userId: 'u1' },
    eventId: 'e',
    eventType: 'note.created',
    attemptKind: 'event',
    body: '{}',
    attempt: 1,
  };

  it('a failed attempt is logged and requeued with the next delay; the last failure goes to the DLQ', async () => {
    const { p, log, requeued, dead } = ports();
    expect(await deliver(job, p)).toBe('retry');
    expect(requeued[0][1]).toBe(30);
    expect(requeued[0][0]).toMatchObject({ attempt: 2, dueAt: 1_000_000 + 30_000 });
    expect(log[0]).toMatchObject({ status: 'failed', statusCategory: 'delivery_issue', httpStatus: 500 });
    // A delay over SQS's 15 minutes hops through the queue until due.
    expect(await deliver({ ...job, attempt: 2 }, p)).toBe('retry');
    expect(requeued[1][1]).toBe(900);
    expect(await deliver({ ...job, attempt: 2, dueAt: 1_000_000 + 3_600_000 }, p)).toBe('retry');
    expect(requeued[2]).toEqual([{ ...job, attempt: 2, dueAt: 1_000_000 + 3_600_000 }, 900]);
    expect(await deliver({ ...job, attempt: 3 }, p)).toBe('failed');
    expect(dead).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ statusCategory: 'not_delivered' });
  });
  it("the retry is due by the schedule counted from the attempt's start, however long the attempt took", async () => {
    // An attempt that ran to its 10 s deadline: the 30 s delay has 20 s left when it is requeued.
    const timedOut = ports({
      settings: { retryDelays: () => [30, 1], attemptTimeoutMs: () => 10_000, retentionDays: () => 30 },
    });
    timedOut.p.post = async () => {
      timedOut.clock.advance(10_000);
      return { error: 'timeout', message: 'no answer within 10000 ms' };
    };
    expect(await deliver(job, timedOut.p)).toBe('retry');
    expect(timedOut.requeued[0]).toEqual([{ ...job, attempt: 2, dueAt: 1_000_000 + 30_000 }, 20]);
    // An attempt longer than the delay (the tests' 1 s delay after a 1.5 s deadline): due at once.
    expect(await deliver({ ...job, attempt: 2 }, timedOut.p)).toBe('retry');
    expect(timedOut.requeued[1]).toEqual([{ ...job, attempt: 3, dueAt: 1_010_000 + 1_000 }, 0]);
    // The requeued job is delivered when it comes back (not hopped again): it is due.
    timedOut.clock.set(1_000_000 + 30_000);
    timedOut.p.post = async () => ({ status: 200 });
    expect(await deliver(timedOut.requeued[0][0], timedOut.p)).toBe('success');
  });
  it("an inactive webhook's event is logged as skipped (webhook_disabled) and nothing is posted", async () => {
    let posted = false;
    const { p, log, requeued } = ports({
      hook: async () => hook({ active: false }),
      post: async () => {
        posted = true;
        return { status: 200 };
      },
    });
    expect(await deliver(job, p)).toBe('skipped');
    expect(posted).toBe(false);
    expect(requeued).toEqual([]);
    expect(log).toEqual([
      expect.objectContaining({
        status: 'skipped',
        statusCategory: 'not_delivered',
        errorCategory: 'webhook_disabled',
      }),
    ]);
  });
  it('an unsafe destination is suppressed and nothing is posted', async () => {
    let posted = false;
    let suppressed: boolean | undefined;
    const { p, log } = ports({
      checkDestination: async () => ({ ok: false, reason: 'private' }),
      post: async () => {
        posted = true;
        return { status: 200 };
      },
      setPolicy: async (_o, _h, s) => {
        suppressed = s;
      },
    });
    expect(await deliver(job, p)).toBe('suppressed');
    expect(posted).toBe(false);
    expect(suppressed).toBe(true);
    expect(log[0]).toMatchObject({ status: 'skipped', errorCategory: 'unsafe_destination' });
  });
  it('a deleted webhook drops the job; a ping is tried once', async () => {
    expect(await deliver(job, ports({ hook: async () => undefined }).p)).toBe('dropped');
    const { p, requeued, dead } = ports();
    expect(await deliver({ ...job, attemptKind: 'ping', eventType: 'ping' }, p)).toBe('failed');
    expect(requeued).toEqual([]);
    expect(dead).toEqual([]);
  });
});

describe('destinations (no connection is opened)', () => {
  it('deployed: loopback, private, link-local (metadata), unique-local, multicast, mapped addresses are refused', async () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:10.0.0.1',
      'ff02::1',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect(isPublicAddress(ip), ip).toBe(true);
    expect(await checkDestination('https://169.254.169.254/latest', undefined)).toMatchObject({ ok: false });
    expect(await checkDestination('https://[::1]/x', undefined)).toMatchObject({ ok: false });
    expect(await checkDestination('https://93.184.216.34/x', undefined)).toEqual({
      ok: true,
      address: '93.184.216.34',
      family: 4,
    });
  });
  it('deployed: IPv6 forms that embed an IPv4 address are refused (mapped ones judged as IPv4)', async () => {
    const refused = [
      ['::7f00:1', 'IPv4-compatible loopback'],
      ['::a9fe:a9fe', 'IPv4-compatible metadata address'],
      ['::a00:1', 'IPv4-compatible private'],
      ['::808:808', 'IPv4-compatible, even of a public address (deprecated, never routed)'],
      ['::1:0:1', 'the rest of ::/8 (reserved)'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata address (hex)'],
      ['::ffff:192.168.0.1', 'IPv4-mapped private'],
      ['::ffff:100.64.0.1', 'IPv4-mapped carrier-grade NAT'],
      ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
      ['2002:7f00:1::1', '6to4 of loopback'],
      ['2002:a9fe:a9fe::', '6to4 of the metadata address'],
      ['2002:c0a8:101::1', '6to4 of a private address'],
      ['2002:808:808::1', '6to4 of a public address (deprecated relay)'],
      ['64:ff9b::7f00:1', 'NAT64 of loopback'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
      ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
      ['64:ff9b:1::a00:1', 'local-use NAT64 of a private address'],
      ['64:ff9b:1:ffff::808:808', 'local-use NAT64 (64:ff9b:1::/48, never global)'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo (client 127.0.0.1)'],
      ['2001:0:c0a8:101::1', 'Teredo (server 192.168.1.1)'],
      ['fec0::1', 'site-local (deprecated)'],
      ['100::1', 'discard'],
      ['2001:db8::1', 'documentation'],
    ];
    for (const [ip, what] of refused) {
      expect(isPublicAddress(ip), `${ip}: ${what}`).toBe(false);
      expect(
        await checkDestination(`https://hooks.example/x`, undefined, async () => [
          { address: ip, family: 6 },
        ]),
        `${ip} resolved: ${what}`,
      ).toMatchObject({ ok: false });
      expect(await checkDestination(`https://[${ip}]/x`, undefined), `${ip} literal: ${what}`).toMatchObject({
        ok: false,
      });
    }
    for (const ip of ['::ffff:93.184.216.34', '::ffff:5db8:d822', '2001:4860:4860::8888'])
      expect(isPublicAddress(ip), ip).toBe(true);
  });
  it('deployed: a name is judged by every address it resolves to at delivery time (rebinding)', async () => {
    const resolvesTo =
      (...addresses: string[]) =>
      async () =>
        addresses.map((address) => ({ address, family: 4 }));
    expect(
      await checkDestination('https://hooks.example/x', undefined, resolvesTo('93.184.216.34')),
    ).toMatchObject({ ok: true, address: '93.184.216.34' });
    expect(
      await checkDestination('https://hooks.example/x', undefined, resolvesTo('93.184.216.34', '10.0.0.7')),
    ).toMatchObject({ ok: false });
    expect(
      await checkDestination('https://rebind.example/x', undefined, resolvesTo('127.0.0.1')),
    ).toMatchObject({ ok: false });
  });
  it('locally: exactly the listed destinations (127.0.0.2 is refused)', async () => {
    const allowed = ['127.0.0.1', 'localhost'];
    expect(await checkDestination('http://127.0.0.1:9/x', allowed)).toMatchObject({ ok: true });
    expect(await checkDestination('http://127.0.0.2:9/x', allowed)).toMatchObject({ ok: false });
    expect(
      await checkDestination('http://localhost:9/x', allowed, async () => [
        { address: '127.0.0.1', family: 4 },
      ]),
    ).toMatchObject({ ok: true });
    expect(await checkDestination('http://93.184.216.34/x', allowed)).toMatchObject({ ok: false });
    // A URL stored before port 0 was refused is not sent to the scheme's port.
    expect(await checkDestination('http://127.0.0.1:0/x', allowed)).toMatchObject({ ok: false });
  });
  it('the poster connects to the checked address, whatever the name would resolve to now', async () => {
    const hosts: string[] = [];
    const server = createServer((req, res) => {
      hosts.push(String(req.headers.host));
      res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const out = await postDelivery({
        url: `http://receiver.invalid:${port}/hook`,
        address: '127.0.0.1',
        family: 4,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
      });
      expect(out).toEqual({ status: 302 }); // not followed
      expect(hosts).toEqual([`receiver.invalid:${port}`]);
    } finally {
      server.close();
    }
  });
});

describe('metrics and local filters', () => {
  it('an outcome is one embedded-metric-format line', () => {
    const line = JSON.parse(emfLine('success', 12, 5));
    expect(line).toEqual({
      _aws: {
        Timestamp: 5,
        CloudWatchMetrics: [
          {
            Namespace: 'TriApi/Webhooks',
            Dimensions: [['Outcome']],
            Metrics: [
              { Name: 'Deliveries', Unit: 'Count' },
              { Name: 'LatencyMs', Unit: 'Milliseconds' },
            ],
          },
        ],
      },
      Outcome: 'success',
      Deliveries: 1,
      LatencyMs: 12,
    });
  });
  it("the template's stream filters pass marked note META and pinged webhooks, nothing else", () => {
    const fn = loadTemplate().Resources.NotesRouteWebhookEventsFunction;
    const patterns = fn.Properties!.Events.TableChanges.Properties.FilterCriteria.Filters.map(
      (f: { Pattern: string }) => f.Pattern,
    );
    const record = (eventName: string, sk: string, image: Record<string, unknown>) => ({
      eventName,
      dynamodb: { Keys: { PK: { S: 'x' }, SK: { S: sk } }, NewImage: image },
    });
    const hooked = { hooked: { BOOL: true } }; // a note of a workspace with a webhook
    expect(passesFilters(patterns, record('INSERT', 'NOTE#META', { type: { S: 'note' }, ...hooked }))).toBe(
      true,
    );
    expect(passesFilters(patterns, record('INSERT', 'NOTE#META', { type: { S: 'note' } }))).toBe(false);
    expect(passesFilters(patterns, record('MODIFY', 'NOTE#CONTENT', { type: { S: 'note-content' } }))).toBe(
      false,
    );
    expect(passesFilters(patterns, record('REMOVE', 'NOTE#META', {}))).toBe(false);
    expect(
      passesFilters(patterns, record('MODIFY', 'WEBHOOK#h', { type: { S: 'webhook' }, pingId: { S: 'p' } })),
    ).toBe(true);
    expect(passesFilters(patterns, record('MODIFY', 'WEBHOOK#h', { type: { S: 'webhook' } }))).toBe(false);
  });
});
