// The 18 webhook operations over HTTP (personal and team), with HackMD's shapes and status codes,
// every response checked against openapi/notes.json.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { webhookKeys } from '../../lib/data/keys.ts';
import { deliveryIdOf, type DeliveryRecord } from '../../lib/notes/webhooks/webhooks.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, expectBudget } from './helpers.ts';

const URL_OK = 'http://127.0.0.1:9/hook';
const HOOK_FIELDS = [
  'configuredStatus',
  'configuredStatusReason',
  'createdAt',
  'deliveryPolicyReason',
  'deliveryPolicyStatus',
  'eventDeliveryMode',
  'id',
  'name',
  'scope',
  'updatedAt',
  'url',
];

const create = (token: string, body: unknown, teamPath?: string) =>
  call('POST', teamPath ? `/v1/teams/${teamPath}/webhooks` : '/v1/webhooks', { token, body });

/** Writes attempts straight into the delivery log, as the delivery function does. */
async function seedDeliveries(hookId: string, n: number): Promise<DeliveryRecord[]> {
  const out: DeliveryRecord[] = [];
  const now = Date.now();
  for (let i = 0; i < n; i += 1) {
    const at = now - (n - i) * 1000;
    const d: DeliveryRecord = {
      id: deliveryIdOf(at, Buffer.from(`d${i}`.padEnd(6, 'x'))),
      hookId,
      eventId: `evt_${i}`,
      eventType: 'note.updated',
      attemptKind: 'event',
      attempt: 1,
      status: i % 2 ? 'failed' : 'success',
      statusCategory: i % 2 ? 'delivery_issue' : 'delivered',
      httpStatus: i % 2 ? 500 : 200,
      latencyMs: 10 + i,
      errorCategory: i % 2 ? 'http_status' : null,
      errorMessage: i % 2 ? 'The receiver answered 500' : null,
      createdAt: at,
      deliveredAt: i % 2 ? null : at + 10,
    };
    await documentClient().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...webhookKeys.delivery(hookId, d.id), ...d, ttl: Math.ceil(now / 1000) + 3600 },
      }),
    );
    out.push(d);
  }
  return out.reverse(); // newest first
}

// A workspace's first webhook marks its writers and stamps its notes before it commits, and marks
// again after (docs/webhooks.md, "Costs"): +4 requests over a later create (a team: +5, its
// members' Query), plus one UpdateItem per existing note. The last one's delete unmarks the
// writers: +1 (a team: +2) over another delete.
const FIRST_CREATE = { personal: 7, team: 9 };
const LAST_DELETE = { personal: 4, team: 6 };

describe('webhooks (personal)', () => {
  it('creates a webhook: 201, ApiWebhook plus the secret shown once; get, list, update, delete', async () => {
    const me = await newUser('Hook Owner');
    const res = await create(me.token, { name: 'ci', url: URL_OK, scope: { type: 'workspace' } });
    expect(res.status, res.text).toBe(201);
    expectBudget(res, FIRST_CREATE.personal);
    expect(Object.keys(res.body).sort()).toEqual([...HOOK_FIELDS, 'secret'].sort());
    expect(res.body).toMatchObject({
      name: 'ci',
      url: URL_OK,
      scope: { type: 'workspace' },
      configuredStatus: 'active',
      deliveryPolicyStatus: 'normal',
      deliveryPolicyReason: null,
      eventDeliveryMode: 'all_supported_events',
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = res.body.id;

    const got = await call('GET', `/v1/webhooks/${id}`, { token: me.token });
    expect(got.status).toBe(200);
    expectBudget(got, 2);
    expect(Object.keys(got.body).sort()).toEqual(HOOK_FIELDS);
    expect(got.text).not.toContain('whsec_');
    const listed = await call('GET', '/v1/webhooks', { token: me.token });
    expect(listed.status).toBe(200);
    expectBudget(listed, 2);
    expect(listed.body).toEqual([got.body]);

    const patched = await call('PATCH', `/v1/webhooks/${id}`, {
      token: me.token,
      body: { active: false, name: 'renamed' },
    });
    expect(patched.status).toBe(200);
    expectBudget(patched, 2);
    expect(patched.body).toMatchObject({ id, name: 'renamed', configuredStatus: 'disabled', url: URL_OK });
    expect((await call('GET', `/v1/webhooks/${id}`, { token: me.token })).body).toEqual(patched.body);

    const second = await create(me.token, { url: URL_OK, scope: { type: 'workspace' } });
    expectBudget(second, 3);
    const delSecond = await call('DELETE', `/v1/webhooks/${second.body.id}`, { token: me.token });
    expect(delSecond.status).toBe(204);
    expectBudget(delSecond, 3);
    const del = await call('DELETE', `/v1/webhooks/${id}`, { token: me.token });
    expect(del.status).toBe(204);
    expectBudget(del, LAST_DELETE.personal);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/ping`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['GET', `/v1/webhooks/${id}/deliveries/export`],
      ['GET', `/v1/webhooks/${id}/deliveries/abc`],
    ])
      expect(
        (await call(method, path, { token: me.token, body: method === 'PATCH' ? { name: 'x' } : undefined }))
          .status,
        `${method} ${path}`,
      ).toBe(404);
    expect((await call('GET', '/v1/webhooks', { token: me.token })).body).toEqual([]);
  });

  it("another user's webhook is 404 to them", async () => {
    const [a, b] = [await newUser('A'), await newUser('B')];
    const id = (await create(a.token, { url: URL_OK, scope: { type: 'workspace' } })).body.id;
    expect((await call('GET', `/v1/webhooks/${id}`, { token: b.token })).status).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${id}`, { token: b.token })).status).toBe(404);
    expect((await call('GET', '/v1/webhooks', { token: b.token })).body).toEqual([]);
  });

  it('the signing secret is sealed at rest', async () => {
    const me = await newUser('Sealed');
    const res = await create(me.token, { url: URL_OK, scope: { type: 'workspace' } });
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: config.tableName,
        Key: webhookKeys.webhook({ userId: me.id }, res.body.id),
      }),
    );
    expect(JSON.stringify(Item)).not.toContain(res.body.secret);
    expect(JSON.stringify(Item)).not.toContain(res.body.secret.slice(6));
    expect(Item?.sealedSecret).toEqual(expect.any(String));
  });

  it('a folder scope names a folder of the workspace (404 otherwise) and cannot change', async () => {
    const me = await newUser('Folder Hooks');
    const other = await newUser('Other');
    const folder = (await call('POST', '/v1/folders', { token: me.token, body: { name: 'F' } })).body;
    const theirs = (await call('POST', '/v1/folders', { token: other.token, body: { name: 'G' } })).body;
    const ok = await create(me.token, { url: URL_OK, scope: { type: 'folder', folderId: folder.id } });
    expect(ok.status, ok.text).toBe(201);
    expectBudget(ok, FIRST_CREATE.personal + 1);
    expect(ok.body.scope).toEqual({ type: 'folder', folderId: folder.id });
    for (const folderId of [theirs.id, 'no-such-folder']) {
      const res = await create(me.token, { url: URL_OK, scope: { type: 'folder', folderId } });
      expect(res.status).toBe(404);
    }
    const change = await call('PATCH', `/v1/webhooks/${ok.body.id}`, {
      token: me.token,
      body: { scope: { type: 'workspace' } },
    });
    expect(change.status).toBe(422);
    expect(change.body.errors.map((e: { field: string }) => e.field)).toContain('scope');
  });

  it('validates the body: 422 naming url (scheme, credentials, length), scope, name; PATCH needs a field', async () => {
    const me = await newUser('Validation');
    const bad: [unknown, string][] = [
      [{ url: 'ftp://example.com/x', scope: { type: 'workspace' } }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/x', scope: { type: 'workspace' } }, 'url'],
      [{ url: `http://127.0.0.1/${'a'.repeat(2048)}`, scope: { type: 'workspace' } }, 'url'],
      [{ url: 'not a url', scope: { type: 'workspace' } }, 'url'],
      [{ url: ` ${URL_OK}`, scope: { type: 'workspace' } }, 'url'],
      [{ url: `${URL_OK}\t`, scope: { type: 'workspace' } }, 'url'],
      [{ url: 'http://127.0.0.1:9/ho\r\nok', scope: { type: 'workspace' } }, 'url'],
      [{ url: 'http://127.0.0.1:9/\u0000', scope: { type: 'workspace' } }, 'url'],
      [{ url: 'http://127.0.0.1:0/hook', scope: { type: 'workspace' } }, 'url'],
      [{ scope: { type: 'workspace' } }, 'url'],
      [{ url: URL_OK }, 'scope'],
      [{ url: URL_OK, scope: { type: 'folder' } }, 'scope'],
      [{ url: URL_OK, scope: { type: 'everything' } }, 'scope'],
      [{ url: URL_OK, scope: { type: 'workspace' }, name: 'n'.repeat(256) }, 'name'],
      [{ url: 1, scope: { type: 'workspace' }, events: ['note.created'] }, 'url'],
    ];
    for (const [body, field] of bad) {
      const res = await create(me.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(
        res.body.errors.map((e: { field: string }) => e.field).join(' '),
        JSON.stringify(body).slice(0, 80),
      ).toContain(field);
    }
    const hook = await create(me.token, { url: URL_OK, scope: { type: 'workspace' } });
    for (const [body, field] of [
      [{}, 'body'],
      [{ url: 'http://a:b@127.0.0.1/' }, 'url'],
      [{ active: 'yes' }, 'active'],
    ] as const) {
      const res = await call('PATCH', `/v1/webhooks/${hook.body.id}`, { token: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await call('GET', '/v1/webhooks/bad%20id', { token: me.token })).status).toBe(400);
    expect((await call('GET', '/v1/webhooks', {})).status).toBe(401);
  });

  it('a URL is stored as the WHATWG URL parser serialises it (what deliveries connect to)', async () => {
    const me = await newUser('Normalised');
    for (const [sent, stored] of [
      ['http://１２７.０.０.１:9/hook', URL_OK], // fullwidth digits, mapped by IDNA
      ['HTTP://LOCALHOST:9/hook', 'http://localhost:9/hook'],
      ['http://127.0.0.1:09', 'http://127.0.0.1:9/'],
      ['http://localhost:9/ä b', 'http://localhost:9/%C3%A4%20b'],
    ]) {
      const made = await create(me.token, { url: sent, scope: { type: 'workspace' } });
      expect(made.status, sent).toBe(201);
      expect(made.body.url, sent).toBe(stored);
      const read = await call('GET', `/v1/webhooks/${made.body.id}`, { token: me.token });
      expect(read.body.url).toBe(stored);
    }
    const [first] = (await call('GET', '/v1/webhooks', { token: me.token })).body;
    const patched = await call('PATCH', `/v1/webhooks/${first.id}`, {
      token: me.token,
      body: { url: 'http://ＬＯＣＡＬＨＯＳＴ:9/x' },
    });
    expect(patched.body.url).toBe('http://localhost:9/x');
    const refused = await call('PATCH', `/v1/webhooks/${first.id}`, {
      token: me.token,
      body: { url: 'http://localhost:0/x' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'url', message: 'must not use port 0' }]);
  });

  it('at most NOTES_WEBHOOK_LIMIT (10) webhooks per workspace: the 11th is 429', async () => {
    const me = await newUser('Many Hooks');
    const made = await Promise.all(
      Array.from({ length: 10 }, () => create(me.token, { url: URL_OK, scope: { type: 'workspace' } })),
    );
    expect(made.map((r) => r.status)).toEqual(Array(10).fill(201));
    const eleventh = await create(me.token, { url: URL_OK, scope: { type: 'workspace' } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.code).toBe(42900);
    expect((await call('GET', '/v1/webhooks', { token: me.token })).body).toHaveLength(10);
    expect((await call('DELETE', `/v1/webhooks/${made[0].body.id}`, { token: me.token })).status).toBe(204);
    expect((await create(me.token, { url: URL_OK, scope: { type: 'workspace' } })).status).toBe(201);
  });

  it('ping: 204, then 429 with Retry-After within the interval', async () => {
    const me = await newUser('Pinger');
    const id = (await create(me.token, { url: URL_OK, scope: { type: 'workspace' } })).body.id;
    const first = await call('POST', `/v1/webhooks/${id}/ping`, { token: me.token });
    expect(first.status).toBe(204);
    expectBudget(first, 2);
    const again = await call('POST', `/v1/webhooks/${id}/ping`, { token: me.token });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('deliveries: pages {data, meta}, one by id, the export as NDJSON; bad page/limit 400', async () => {
    const me = await newUser('Deliveries');
    const id = (await create(me.token, { url: URL_OK, scope: { type: 'workspace' } })).body.id;
    const seeded = await seedDeliveries(id, 25);
    const first = await call('GET', `/v1/webhooks/${id}/deliveries`, { token: me.token });
    expect(first.status).toBe(200);
    expectBudget(first, 4); // the page's Query and the counting Query
    expect(first.body.meta).toEqual({ limit: 20, page: 1, total: 25, totalPages: 2 });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(seeded.slice(0, 20).map((d) => d.id));
    const second = await call('GET', `/v1/webhooks/${id}/deliveries?page=2&limit=20`, { token: me.token });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual(seeded.slice(20).map((d) => d.id));
    const small = await call('GET', `/v1/webhooks/${id}/deliveries?page=3&limit=10`, { token: me.token });
    expect(small.body).toMatchObject({ meta: { limit: 10, page: 3, total: 25, totalPages: 3 } });
    expect(small.body.data).toHaveLength(5);
    const beyond = await call('GET', `/v1/webhooks/${id}/deliveries?page=9`, { token: me.token });
    expect(beyond.body.data).toEqual([]);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x', 'limit=1.5'])
      expect((await call('GET', `/v1/webhooks/${id}/deliveries?${q}`, { token: me.token })).status, q).toBe(
        400,
      );

    const one = await call('GET', `/v1/webhooks/${id}/deliveries/${seeded[1].id}`, { token: me.token });
    expect(one.status).toBe(200);
    expectBudget(one, 3);
    expect(one.body).toEqual({
      id: seeded[1].id,
      eventType: 'note.updated',
      attemptKind: 'event',
      status: seeded[1].status,
      statusCategory: seeded[1].statusCategory,
      httpStatus: seeded[1].httpStatus,
      errorCategory: seeded[1].errorCategory,
      errorMessage: seeded[1].errorMessage,
      latencyMs: seeded[1].latencyMs,
      createdAt: seeded[1].createdAt,
      deliveredAt: seeded[1].deliveredAt,
    });
    expect((await call('GET', `/v1/webhooks/${id}/deliveries/nope`, { token: me.token })).status).toBe(404);

    const exported = await call('GET', `/v1/webhooks/${id}/deliveries/export`, { token: me.token });
    expect(exported.status).toBe(200);
    expectBudget(exported, 3);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = exported.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((d) => d.id)).toEqual(seeded.map((d) => d.id));
  });
});

describe('webhooks (team)', () => {
  it("the team's owner manages them; other members 403; outsiders and unknown teams 404", async () => {
    const [owner, member, outsider] = [await newUser('Owner'), await newUser('Member'), await newUser('Out')];
    const team = await newTeam(owner, [member]);
    const base = `/v1/teams/${team.path}/webhooks`;
    const made = await create(
      owner.token,
      { url: URL_OK, scope: { type: 'workspace' }, name: 't' },
      team.path,
    );
    expect(made.status, made.text).toBe(201);
    expectBudget(made, FIRST_CREATE.team);
    const id = made.body.id;
    const routes: [string, string, unknown?][] = [
      ['GET', base],
      ['POST', base, { url: URL_OK, scope: { type: 'workspace' } }],
      ['GET', `${base}/${id}`],
      ['PATCH', `${base}/${id}`, { name: 'x' }],
      ['POST', `${base}/${id}/ping`],
      ['GET', `${base}/${id}/deliveries`],
      ['GET', `${base}/${id}/deliveries/export`],
      ['GET', `${base}/${id}/deliveries/abc`],
      ['DELETE', `${base}/${id}`],
    ];
    for (const [method, path, body] of routes) {
      expect(
        (await call(method, path, { token: member.token, body })).status,
        `member ${method} ${path}`,
      ).toBe(403);
      expect(
        (await call(method, path, { token: outsider.token, body })).status,
        `outsider ${method} ${path}`,
      ).toBe(404);
    }
    expect((await call('GET', '/v1/teams/no-such-team-x/webhooks', { token: owner.token })).status).toBe(404);
    // The personal routes do not reach a team's webhook.
    expect((await call('GET', `/v1/webhooks/${id}`, { token: owner.token })).status).toBe(404);

    const listed = await call('GET', base, { token: owner.token });
    expect(listed.status).toBe(200);
    expectBudget(listed, 3);
    expect(listed.body.map((h: { id: string }) => h.id)).toEqual([id]);
    const got = await call('GET', `${base}/${id}`, { token: owner.token });
    expectBudget(got, 3);
    expect(got.body.name).toBe('t');
    const patched = await call('PATCH', `${base}/${id}`, {
      token: owner.token,
      body: { url: 'http://localhost:9/x' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.url).toBe('http://localhost:9/x');
    const ping = await call('POST', `${base}/${id}/ping`, { token: owner.token });
    expect(ping.status).toBe(204);
    const deliveries = await call('GET', `${base}/${id}/deliveries`, { token: owner.token });
    expect(deliveries.status).toBe(200);
    expectBudget(deliveries, 5); // team: the membership GetItem too
    const exported = await call('GET', `${base}/${id}/deliveries/export`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect((await call('GET', `${base}/${id}/deliveries/abc`, { token: owner.token })).status).toBe(404);
    const del = await call('DELETE', `${base}/${id}`, { token: owner.token });
    expect(del.status).toBe(204);
    expectBudget(del, LAST_DELETE.team);
  });

  it('a team folder scope must be a folder of the team', async () => {
    const owner = await newUser('Team Folder Owner');
    const team = await newTeam(owner);
    const personal = (await call('POST', '/v1/folders', { token: owner.token, body: { name: 'mine' } })).body;
    const teamFolder = (
      await call('POST', `/v1/teams/${team.path}/folders`, { token: owner.token, body: { name: 't' } })
    ).body;
    expect(
      (
        await create(
          owner.token,
          { url: URL_OK, scope: { type: 'folder', folderId: personal.id } },
          team.path,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await create(
          owner.token,
          { url: URL_OK, scope: { type: 'folder', folderId: teamFolder.id } },
          team.path,
        )
      ).status,
    ).toBe(201);
  });
});
