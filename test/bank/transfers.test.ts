// Transfers over HTTP: create, read, replace, update, conditional GET, isolation, Idempotency-Key,
// step-up, and the DynamoDB request budgets.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newUser } from '../support/identity.ts';
import { approvedVerification, call, expectError, expectRequests } from './helpers.ts';

const body = {
  amount: 1500,
  currency: 'EUR',
  destination: 'acct_123',
  description: 'Rent',
  metadata: { order: '42' },
};

describe('transfers', () => {
  it('creates a transfer: 201, Location, lower-case currency, within budget', async () => {
    const u = await newUser();
    const res = await call('POST', '/api/transfers', { token: u.token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      amount: 1500,
      currency: 'eur',
      destination: 'acct_123',
      description: 'Rent',
      metadata: { order: '42' },
    });
    expect(res.body.id).toMatch(/^tr_/);
    expect(res.body.created).toBe(res.body.updated);
    expect(res.headers.get('location')).toBe(`/api/transfers/${res.body.id}`);
    expectRequests(res, 5);
    const keyed = await call('POST', '/api/transfers', {
      token: u.token,
      body,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(keyed.status).toBe(201);
    expectRequests(keyed, 5);
  });

  it('reads one transfer with ETag and Last-Modified; 304 on a match; within budget', async () => {
    const u = await newUser();
    const { body: t } = await call('POST', '/api/transfers', { token: u.token, body });
    const res = await call('GET', `/api/transfers/${t.id}`, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(t);
    expectRequests(res, 2);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(
      (await call('GET', `/api/transfers/${t.id}`, { token: u.token, headers: { 'If-None-Match': etag } }))
        .status,
    ).toBe(304);
    expect(
      (
        await call('GET', `/api/transfers/${t.id}`, {
          token: u.token,
          headers: { 'If-Modified-Since': res.headers.get('last-modified')! },
        })
      ).status,
    ).toBe(304);
    expect(
      (
        await call('GET', `/api/transfers/${t.id}`, {
          token: u.token,
          headers: { 'If-None-Match': '"other"' },
        })
      ).status,
    ).toBe(200);
  });

  it('PUT replaces description and metadata (absent = cleared); POST merges; mandatory fields are 422', async () => {
    const u = await newUser();
    const { body: t } = await call('POST', '/api/transfers', {
      token: u.token,
      body: { ...body, metadata: { a: '1', b: '2' } },
    });
    const merged = await call('POST', `/api/transfers/${t.id}`, {
      token: u.token,
      body: { metadata: { b: '', c: '3' } },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ description: 'Rent', metadata: { a: '1', c: '3' }, amount: 1500 });
    expectRequests(merged, 4);
    const keyed = await call('POST', `/api/transfers/${t.id}`, {
      token: u.token,
      body: { description: 'Keyed' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(keyed.body.description).toBe('Keyed');
    expectRequests(keyed, 4);
    const replaced = await call('PUT', `/api/transfers/${t.id}`, {
      token: u.token,
      body: { metadata: { z: '9' } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ description: null, metadata: { z: '9' } });
    expectRequests(replaced, 4);
    expect(
      (await call('POST', `/api/transfers/${t.id}`, { token: u.token, body: { metadata: null } })).body
        .metadata,
    ).toEqual({});
    expectError(
      await call('PUT', `/api/transfers/${t.id}`, {
        token: u.token,
        body: { amount: 1, currency: 'usd', destination: 'x' },
      }),
      422,
      ['amount', 'currency', 'destination'],
    );
    expectError(
      await call('POST', `/api/transfers/${t.id}`, { token: u.token, body: { amount: 2, color: 'red' } }),
      422,
      ['amount', 'color'],
    );
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'v']));
    await call('POST', `/api/transfers/${t.id}`, { token: u.token, body: { metadata: many } });
    const more = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m${i}`, 'v']));
    expectError(
      await call('POST', `/api/transfers/${t.id}`, { token: u.token, body: { metadata: more } }),
      422,
      ['metadata'],
    );
  });

  it("another user's transfer is 404 for every operation", async () => {
    const owner = await newUser();
    const other = await newUser();
    const { body: t } = await call('POST', '/api/transfers', { token: owner.token, body });
    expectError(await call('GET', `/api/transfers/${t.id}`, { token: other.token }), 404);
    expectError(await call('PUT', `/api/transfers/${t.id}`, { token: other.token, body: {} }), 404);
    expectError(
      await call('POST', `/api/transfers/${t.id}`, { token: other.token, body: { description: 'mine' } }),
      404,
    );
    const list = await call('GET', '/api/transfers', { token: other.token });
    expect(list.body.data).toEqual([]);
    expect((await call('GET', `/api/transfers/${t.id}`, { token: owner.token })).body.description).toBe(
      'Rent',
    );
  });

  it('a transfer at or above the threshold needs a step-up, consumed once', async () => {
    const u = await newUser();
    const big = { ...body, amount: 1_000_000 };
    expectError(await call('POST', '/api/transfers', { token: u.token, body: big }), 403);
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: big,
        headers: { 'X-MFA-Verification': 'ver_notarealverification' },
      }),
      403,
    );
    const verification = await approvedVerification(u);
    const ok = await call('POST', '/api/transfers', {
      token: u.token,
      body: big,
      headers: { 'X-MFA-Verification': verification, 'Idempotency-Key': randomUUID() },
    });
    expect(ok.status).toBe(201);
    expectRequests(ok, 5);
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: big,
        headers: { 'X-MFA-Verification': verification },
      }),
      403,
    );
    expect(
      (await call('POST', '/api/transfers', { token: u.token, body: { ...big, amount: 999_999 } })).status,
    ).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('20 concurrent creates with one key make exactly one transfer; each response is it (201) or 409', async () => {
    const u = await newUser();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/api/transfers', { token: u.token, body, headers: { 'Idempotency-Key': key } }),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length + responses.filter((r) => r.status === 409).length).toBe(20);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of responses.filter((x) => x.status === 409)) expect(r.body.code).toBe(40901);
    const list = await call('GET', '/api/transfers', { token: u.token });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([created[0].body.id]);
    const replay = await call('POST', '/api/transfers', {
      token: u.token,
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(created[0].body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(`/api/transfers/${created[0].body.id}`);
  });

  it('the same key with another body is 409 idempotency_error; keys are per caller; too long is 400', async () => {
    const u = await newUser();
    const key = randomUUID();
    const first = await call('POST', '/api/transfers', {
      token: u.token,
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).toBe(201);
    const other = await call('POST', '/api/transfers', {
      token: u.token,
      body: { ...body, amount: 1501 },
      headers: { 'Idempotency-Key': key },
    });
    expectError(other, 409);
    expect(other.body.code).toBe(40901);
    const someoneElse = await newUser();
    const theirs = await call('POST', '/api/transfers', {
      token: someoneElse.token,
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body,
        headers: { 'Idempotency-Key': 'k'.repeat(256) },
      }),
      400,
      ['Idempotency-Key'],
    );
  });

  it('a failed request releases its key: the retry with a step-up succeeds', async () => {
    const u = await newUser();
    const key = randomUUID();
    const big = { ...body, amount: 2_000_000 };
    expectError(
      await call('POST', '/api/transfers', {
        token: u.token,
        body: big,
        headers: { 'Idempotency-Key': key },
      }),
      403,
    );
    const verification = await approvedVerification(u);
    expect(
      (
        await call('POST', '/api/transfers', {
          token: u.token,
          body: big,
          headers: { 'Idempotency-Key': key, 'X-MFA-Verification': verification },
        })
      ).status,
    ).toBe(201);
  });
});
