// What a caller must prove, held to the letter (docs/bank.md, "Abuse limits"): a passkey's credential
// id registered once across every user, no proof stored in clear (Idempotency-Key records included),
// and every refusal a security event. Handlers are invoked in this process (real DynamoDB Local), so
// the security events they log can be read.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { CompactSign, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as activateHandler } from '../../functions/bank/activate-device.ts';
import { handler as deleteHandler } from '../../functions/bank/delete-device.ts';
import { handler as enrollHandler } from '../../functions/bank/enroll-device.ts';
import { handler as listChallengesHandler } from '../../functions/bank/list-push-challenges.ts';
import { handler as answerHandler } from '../../functions/bank/answer-push-challenge.ts';
import { handler as startHandler } from '../../functions/bank/start-verification.ts';
import { handler as verifyHandler } from '../../functions/bank/verify.ts';
import { credentialKey } from '../../lib/bank/adapters/dynamo-factors.ts';
import { fullEnrolment, fullMfa } from '../../lib/bank/wiring.ts';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { logger } from '../../lib/http/logger.ts';
import { invoke, type Invoked } from '../support/events.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createCredential, getAssertion, type SoftCredential } from '../support/software-authenticator.ts';
import { enroll, outboxCode } from '../bank/helpers.ts';

const origin = () => config.passkeyOrigins[0]!;
type SigningKey = Parameters<SignJWT['sign']>[0];
const noLog = () => {};

const enrol = (u: TestUser, body: unknown, stepUp?: string) =>
  invoke(enrollHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/devices',
    pathParameters: { userId: u.id },
    token: u.token,
    body,
    headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
  });
const activate = (u: TestUser, deviceId: string, body: unknown) =>
  invoke(activateHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/devices/{deviceId}/activate',
    pathParameters: { userId: u.id, deviceId },
    token: u.token,
    body,
  });
const start = (u: TestUser, deviceId: string, headers?: Record<string, string>) =>
  invoke(startHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/verifications',
    pathParameters: { userId: u.id },
    token: u.token,
    body: { device_id: deviceId },
    headers,
  });
const verify = (u: TestUser, verificationId: string, body: unknown) =>
  invoke(verifyHandler, {
    method: 'POST',
    resource: '/api/users/{userId}/verifications/{verificationId}',
    pathParameters: { userId: u.id, verificationId },
    token: u.token,
    body,
  });
const remove = (u: TestUser, deviceId: string, stepUp?: string) =>
  invoke(deleteHandler, {
    method: 'DELETE',
    resource: '/api/users/{userId}/devices/{deviceId}',
    pathParameters: { userId: u.id, deviceId },
    token: u.token,
    headers: stepUp ? { 'X-MFA-Verification': stepUp } : undefined,
  });

/** An approved verification of an sms factor the operator enrolled: a step-up. */
async function stepUp(u: TestUser, deviceId?: string): Promise<string> {
  const id = deviceId ?? (await enroll(u, 'sms')).device.id;
  const started = await start(u, id);
  expect(started.status, started.raw).toBe(201);
  const verified = await verify(u, started.body.id, { code: await outboxCode(u.id, started.body.id) });
  expect(verified.status, verified.raw).toBe(200);
  return started.body.id;
}

/** A pending passkey factor and its registration options. */
async function pendingPasskey(u: TestUser, up?: string) {
  const res = await enrol(u, { kind: 'device', name: 'Laptop' }, up);
  expect(res.status, res.raw).toBe(201);
  return {
    id: res.body.id as string,
    options: res.body.activation.public_key as PublicKeyCredentialCreationOptionsJSON,
  };
}

/** An active passkey factor, and the software authenticator's credential that proves it. */
async function activePasskey(u: TestUser, up?: string): Promise<{ id: string; credential: SoftCredential }> {
  const pending = await pendingPasskey(u, up);
  const { response, credential } = createCredential(pending.options, { origin: origin() });
  const res = await activate(u, pending.id, { credential: response });
  expect(res.status, res.raw).toBe(200);
  return { id: pending.id, credential };
}

/** A user with an active push factor (activated as the device app does) and its private key. */
async function pushUser() {
  const u = await newUser();
  const enrolled = await enrol(u, { kind: 'push', name: 'Phone' });
  expect(enrolled.status, enrolled.raw).toBe(201);
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  await fullEnrolment().activatePush(
    { ticket: enrolled.body.activation.ticket, public_key: { kty, crv, x, y } },
    noLog,
  );
  return {
    u,
    deviceId: enrolled.body.id as string,
    privateKey,
    ticket: enrolled.body.activation.ticket as string,
  };
}

/** Every item of the table, as JSON text (binary attributes as base64). */
async function tableText(): Promise<Array<{ key: string; text: string }>> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: config.tableName, ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.map((item) => ({
    key: `${item.PK}/${item.SK}`,
    text: JSON.stringify(item, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v)),
  }));
}

/** Security events written to the log while `fn` runs. */
async function securityEvents(fn: () => Promise<void>): Promise<Array<Record<string, unknown>>> {
  const events: Array<Record<string, unknown>> = [];
  const spy = vi.spyOn(logger, 'warn').mockImplementation(((
    message: string,
    extra: Record<string, unknown>,
  ) => {
    if (message === 'security event') events.push(extra);
  }) as typeof logger.warn);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return events;
}

afterEach(() => vi.restoreAllMocks());

describe('no proof stored in clear, Idempotency-Key records included', () => {
  it("a push start's number, a passkey start's challenge and a push ticket are in no item; a replay answers the same body", async () => {
    const { u, deviceId, ticket } = await pushUser();
    const passkey = await activePasskey(u, await stepUp(u));
    const numbers: number[] = [];
    const challenges: string[] = [];
    for (const id of [deviceId, passkey.id]) {
      const key = { 'Idempotency-Key': randomUUID() };
      const first = await start(u, id, key);
      expect(first.status, first.raw).toBe(201);
      const replayed = await start(u, id, key);
      expect(replayed.status).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(first.body);
      if (id === deviceId) numbers.push(first.body.number);
      else challenges.push((first.body.public_key as PublicKeyCredentialRequestOptionsJSON).challenge);
    }
    expect(numbers).toEqual([expect.any(Number)]);
    expect(challenges).toEqual([expect.any(String)]);

    const found: string[] = [];
    for (const { key, text } of await tableText()) {
      for (const n of numbers) if (text.includes(`"number":${n}`)) found.push(`${key} holds the number ${n}`);
      for (const c of challenges) if (text.includes(c)) found.push(`${key} holds a challenge`);
      if (text.includes(ticket)) found.push(`${key} holds the push ticket`);
    }
    expect(found).toEqual([]);
  });
});

describe('a passkey credential id is registered once, across every user', () => {
  /** A registration answering `options` with the credential id `id` (a new key: what a client can send). */
  const sameId = (options: PublicKeyCredentialCreationOptionsJSON, id: string) =>
    createCredential(options, { origin: origin() }, { credentialId: id }).response;

  it("the user's own active passkey again → 409 at activation, nothing activated", async () => {
    const u = await newUser();
    const sms = (await enroll(u, 'sms')).device.id;
    const first = await pendingPasskey(u, await stepUp(u, sms));
    const second = await pendingPasskey(u, await stepUp(u, sms));
    const { response } = createCredential(first.options, { origin: origin() });
    expect((await activate(u, first.id, { credential: response })).status).toBe(200);
    const again = await activate(u, second.id, { credential: sameId(second.options, response.id) });
    expect(again.status, again.raw).toBe(409);
    expect(again.body).toMatchObject({ code: 40900 });
    const listed = await fullMfa().listDevices(u.id);
    expect(listed.find((d) => d.id === second.id)?.status).toBe('pending_activation');
    // Another credential still activates the second factor.
    const other = createCredential(second.options, { origin: origin() }).response;
    expect((await activate(u, second.id, { credential: other })).status).toBe(200);
  });

  it('another user with the same credential id → 409; once the factor is deleted, the id is free again', async () => {
    const a = await newUser();
    const b = await newUser();
    const held = await pendingPasskey(a);
    const { response } = createCredential(held.options, { origin: origin() });
    expect((await activate(a, held.id, { credential: response })).status).toBe(200);
    const taker = await pendingPasskey(b);
    const refused = await activate(b, taker.id, { credential: sameId(taker.options, response.id) });
    expect(refused.status, refused.raw).toBe(409);

    expect((await remove(a, held.id, await stepUp(a))).status).toBe(204);
    const freed = await activate(b, taker.id, { credential: sameId(taker.options, response.id) });
    expect(freed.status, freed.raw).toBe(200);
  });

  it('a passkey activated before claims existed can still be deleted; the claim another factor made since stays', async () => {
    const a = await newUser();
    const held = await pendingPasskey(a);
    const { response } = createCredential(held.options, { origin: origin() });
    expect((await activate(a, held.id, { credential: response })).status).toBe(200);
    // As activated before this release: no claim item.
    await documentClient().send(
      new DeleteCommand({ TableName: config.tableName, Key: credentialKey(response.id) }),
    );
    const b = await newUser();
    const taker = await pendingPasskey(b);
    expect((await activate(b, taker.id, { credential: sameId(taker.options, response.id) })).status).toBe(
      200,
    );

    expect((await remove(a, held.id, await stepUp(a))).status).toBe(204);
    expect((await fullMfa().listDevices(a.id)).map((d) => d.id)).not.toContain(held.id);
    const c = await newUser();
    const late = await pendingPasskey(c);
    expect((await activate(c, late.id, { credential: sameId(late.options, response.id) })).status).toBe(409);
  });

  it('concurrently, for one user and across two users: exactly one activation wins', async () => {
    const u = await newUser();
    const sms = (await enroll(u, 'sms')).device.id;
    const mine = [
      await pendingPasskey(u, await stepUp(u, sms)),
      await pendingPasskey(u, await stepUp(u, sms)),
    ];
    const users = [await newUser(), await newUser()];
    const theirs = await Promise.all(users.map((v) => pendingPasskey(v)));
    for (const [owners, pending] of [
      [[u, u], mine],
      [users, theirs],
    ] as const) {
      const id = createCredential(pending[0]!.options, { origin: origin() }).response.id;
      const results = await Promise.all(
        pending.map((p, i) => activate(owners[i]!, p.id, { credential: sameId(p.options, id) })),
      );
      expect(results.map((r) => r.status).sort(), results.map((r) => r.raw).join('\n')).toEqual([200, 409]);
    }
  });
});

describe('every refusal is a security event, with user, device, request id and source address', () => {
  /** The call's one event of this name, with who and where. */
  async function refusal(name: string, call: () => Promise<Invoked>, status: number) {
    let res!: Invoked;
    const events = await securityEvents(async () => {
      res = await call();
    });
    expect(res.status, res.raw).toBe(status);
    const matching = events.filter((e) => e.event === name);
    expect(matching, JSON.stringify(events)).toHaveLength(1);
    expect(matching[0]).toMatchObject({
      requestId: res.headers['x-request-id'],
      sourceIp: '127.0.0.1',
      time: expect.any(String),
    });
    return matching[0]!;
  }

  it('a wrong activation code: activation_refused', async () => {
    const u = await newUser();
    const enrolled = await enrol(u, { kind: 'email', email: 'me@example.test' });
    const code = await outboxCode(u.id, enrolled.body.id);
    const wrong = code === '000000' ? '000001' : '000000';
    const event = await refusal(
      'activation_refused',
      () => activate(u, enrolled.body.id, { code: wrong }),
      422,
    );
    expect(event).toMatchObject({ userId: u.id, actorId: u.id, deviceId: enrolled.body.id, kind: 'email' });
  });

  it('a refused WebAuthn registration, a registered credential id and a refused assertion: passkey_refused', async () => {
    const u = await newUser();
    const pending = await pendingPasskey(u);
    const foreign = createCredential(pending.options, { origin: 'https://evil.example' }).response;
    const registration = await refusal(
      'passkey_refused',
      () => activate(u, pending.id, { credential: foreign }),
      422,
    );
    expect(registration).toMatchObject({ userId: u.id, deviceId: pending.id, ceremony: 'registration' });

    const { response, credential } = createCredential(pending.options, { origin: origin() });
    expect((await activate(u, pending.id, { credential: response })).status).toBe(200);
    const other = await newUser();
    const taker = await pendingPasskey(other);
    const duplicate = createCredential(taker.options, { origin: origin() }, { credentialId: response.id });
    const registered = await refusal(
      'passkey_refused',
      () => activate(other, taker.id, { credential: duplicate.response }),
      409,
    );
    expect(registered).toMatchObject({
      userId: other.id,
      deviceId: taker.id,
      reason: 'credential_registered',
    });

    const started = await start(u, pending.id);
    const options = started.body.public_key as PublicKeyCredentialRequestOptionsJSON;
    const forged = getAssertion(options, credential, { origin: origin() }, { forge: true });
    const assertion = await refusal(
      'passkey_refused',
      () => verify(u, started.body.id, { credential: forged }),
      422,
    );
    expect(assertion).toMatchObject({
      userId: u.id,
      deviceId: pending.id,
      verificationId: started.body.id,
      ceremony: 'authentication',
    });
  });

  it('a step-up missing or used: step_up_refused', async () => {
    const u = await newUser();
    const sms = (await enroll(u, 'sms')).device.id;
    const missing = await refusal('step_up_refused', () => remove(u, sms), 403);
    expect(missing).toMatchObject({ userId: u.id, deviceId: sms, verificationId: null });
    const up = await stepUp(u, sms);
    expect((await enrol(u, { kind: 'otp' }, up)).status).toBe(201);
    const used = await refusal('step_up_refused', () => enrol(u, { kind: 'otp' }, up), 403);
    expect(used).toMatchObject({ userId: u.id, verificationId: up });
  });

  it('a forged device JWT, or a forged or replayed decision, naming a real device: device_auth_refused', async () => {
    const { u, deviceId, privateKey } = await pushUser();
    const now = Math.floor(Date.now() / 1000);
    const jwt = (key: SigningKey, kid = deviceId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid })
        .setSubject(kid)
        .setIssuedAt()
        .setExpirationTime(now + 120)
        .sign(key);
    const list = (token: string) =>
      invoke(listChallengesHandler, {
        method: 'GET',
        resource: '/api/push/challenges',
        headers: { Authorization: `Bearer ${token}` },
      });
    const { privateKey: stranger } = await generateKeyPair('ES256');
    const forged = await refusal('device_auth_refused', async () => list(await jwt(stranger)), 401);
    expect(forged).toMatchObject({ userId: u.id, deviceId, proof: 'device_jwt' });
    // A JWT naming no device of this API is refused without an event: there is no one to name.
    let unknown!: Invoked;
    const none = await securityEvents(async () => {
      unknown = await list(await jwt(stranger, 'dev_0000000000000000000000'));
    });
    expect(unknown.status).toBe(401);
    expect(none).toEqual([]);

    const started = await start(u, deviceId);
    const answer = async (response: string) =>
      invoke(answerHandler, {
        method: 'POST',
        resource: '/api/push/challenges/{verificationId}',
        pathParameters: { verificationId: started.body.id },
        headers: { Authorization: `Bearer ${await jwt(privateKey)}` },
        body: { response },
      });
    const decision = (key: SigningKey) =>
      new CompactSign(
        new TextEncoder().encode(
          JSON.stringify({ sub: started.body.id, iat: now, exp: now + 60, decision: 'deny', number: 0 }),
        ),
      )
        .setProtectedHeader({ alg: 'ES256', kid: deviceId })
        .sign(key);
    const bad = await refusal('device_auth_refused', async () => answer(await decision(stranger)), 401);
    expect(bad).toMatchObject({ userId: u.id, deviceId, proof: 'decision', verificationId: started.body.id });
    const genuine = await decision(privateKey);
    expect((await answer(genuine)).status).toBe(200);
    const replayed = await refusal('device_auth_refused', () => answer(genuine), 401);
    expect(replayed).toMatchObject({ userId: u.id, deviceId, proof: 'decision' });
  });
});
