// What a caller must prove, held to the letter (docs/bank.md, "Abuse limits"): a passkey's credential
// id registered once across every user, no proof stored in clear (Idempotency-Key records included),
// and every refusal a security event. Handlers are invoked in this process (real DynamoDB Local), so
// the security events they log can be read.
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
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
import { enrolmentWithEverything, mfa } from '../../lib/bank/wiring.ts';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { logger } from '../../lib/http/logger.ts';
import { invoke, type Invoked } from '../support/events.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { createCredential, getAssertion, type SoftCredential } from '../support/software-authenticator.ts';
import { enroll, outboxCode } from '../bank/helpers.ts';

const origin = () => config.passkeyOrigins[0]!;
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
  await enrolmentWithEverything().activatePush(
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
    const listed = await mfa().listDevices(u.id);
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
