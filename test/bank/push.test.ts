// Push with number matching, end to end through the runner, driven by the reference device app
// (examples/push-device.mjs, run as a process as a developer runs it): the user enrols a push factor
// and gets a ticket; the app activates with it and its own EC P-256 key; a verification shows the
// caller a number; the app lists its challenge (never the number) and answers with the number the
// user types; the caller polls the status. Then what must be refused: a used ticket, a wrong
// number or a denial (denied), a replayed, expired or foreign JWS (401), a challenge not pending
// (409), a second pending push (the first expires), bad keys and tokens (4xx naming the field).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { baseUrl } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, expectError } from './helpers.ts';

const APP = join(ROOT, 'examples', 'push-device.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'push-device-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the device app with its state in `state`, typing `input` if it asks. */
function app(state: string, args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [APP, ...args, '--api', baseUrl(), '--state', state],
      { cwd: ROOT, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

const json = (run: Run) => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

interface Device {
  state: string;
  deviceId: string;
  key: JWK;
}

/** A user with an active push factor, activated by the device app. */
async function pushUser(name = 'Push'): Promise<{ user: TestUser; device: Device; ticket: string }> {
  const user = await newUser(name);
  const enrolled = await call('POST', `/api/users/${user.id}/devices`, {
    token: user.token,
    body: { kind: 'push', name: 'Phone' },
  });
  expect(enrolled.status, enrolled.text).toBe(201);
  expect(enrolled.body).toMatchObject({ kind: 'push', status: 'pending_activation' });
  const { ticket, expires_at } = enrolled.body.activation;
  expect(expires_at).toBeGreaterThan(Date.now() / 1000);
  const state = join(scratch, `${user.id}.json`);
  const activated = json(await app(state, ['activate', '--ticket', ticket, '--name', 'Phone', '--json']));
  expect(activated.device_id).toBe(enrolled.body.id);
  const saved = JSON.parse(readFileSync(state, 'utf8'));
  return { user, device: { state, deviceId: activated.device_id, key: saved.private_key }, ticket };
}

const startPush = async (u: TestUser, deviceId: string) => {
  const res = await call('POST', `/api/users/${u.id}/verifications`, {
    token: u.token,
    body: { device_id: deviceId },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ status: 'pending', number: expect.any(Number) });
  expect(res.body.number).toBeGreaterThanOrEqual(10);
  expect(res.body.number).toBeLessThanOrEqual(99);
  return res.body as { id: string; number: number };
};
const poll = async (u: TestUser, id: string) =>
  (await call('GET', `/api/users/${u.id}/verifications/${id}`, { token: u.token })).body.status;

const now = () => Math.floor(Date.now() / 1000);

/** What the device app signs, built here to send what it never would (replays, stale, foreign). */
async function deviceJwt(d: Device, exp = now() + 120, kid = d.deviceId) {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid })
    .setSubject(d.deviceId)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await importJWK(d.key, 'ES256'));
}
async function decision(d: Device, sub: string, payload: Record<string, unknown> = {}, key = d.key) {
  const iat = now();
  return new CompactSign(
    new TextEncoder().encode(JSON.stringify({ sub, iat, exp: iat + 60, decision: 'approve', ...payload })),
  )
    .setProtectedHeader({ alg: 'ES256', kid: d.deviceId })
    .sign(await importJWK(key, 'ES256'));
}
const answer = async (d: Device, id: string, response: string, jwt?: string) =>
  call('POST', `/api/push/challenges/${id}`, {
    headers: { Authorization: `Bearer ${jwt ?? (await deviceJwt(d))}` },
    body: { response },
  });

describe('push with number matching, through the device app', () => {
  it('activates with the ticket, lists the challenge without its number, approves with the number typed', async () => {
    const { user, device, ticket } = await pushUser();
    const listed = await call('GET', `/api/users/${user.id}/devices`, { token: user.token });
    expect(listed.body).toEqual([
      expect.objectContaining({ id: device.deviceId, kind: 'push', status: 'active' }),
    ]);
    expect(listed.text).not.toContain(ticket);

    // The ticket was single-use.
    const again = await app(join(scratch, 'again.json'), ['activate', '--ticket', ticket]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/→ 410/);

    const started = await startPush(user, device.deviceId);
    const challenges = json(await app(device.state, ['list', '--json']));
    expect(challenges).toEqual([
      {
        id: started.id,
        created: expect.any(Number),
        expires_at: expect.any(Number),
        context: expect.anything(),
      },
    ]);
    expect(JSON.stringify(challenges)).not.toMatch(new RegExp(`\\b${started.number}\\b`));
    expect(await poll(user, started.id)).toBe('pending');

    const approved = await app(device.state, ['approve', started.id], `${started.number}\n`);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('approved');
    expect(await poll(user, started.id)).toBe('approved');
    expect(json(await app(device.state, ['list', '--json']))).toEqual([]);

    // The approval steps up like any other factor's.
    const stepUp = await call('POST', `/api/users/${user.id}/recovery_codes`, {
      token: user.token,
      headers: { 'X-MFA-Verification': started.id },
    });
    expect(stepUp.status, stepUp.text).toBeLessThan(300);

    // Deleting the factor (stepped up by one more approval) ends its key too: the app is refused.
    const last = await startPush(user, device.deviceId);
    expect((await app(device.state, ['approve', last.id], `${last.number}\n`)).code).toBe(0);
    const deleted = await call('DELETE', `/api/users/${user.id}/devices/${device.deviceId}`, {
      token: user.token,
      headers: { 'X-MFA-Verification': last.id },
    });
    expect(deleted.status, deleted.text).toBe(204);
    const refused = await call('GET', '/api/push/challenges', {
      headers: { Authorization: `Bearer ${await deviceJwt(device)}` },
    });
    expect(refused.status, refused.text).toBe(401);
  }, 180_000);

  it('denies on a wrong number and on a denial; one pending push a user', async () => {
    const { user, device } = await pushUser('Push deny');
    const first = await startPush(user, device.deviceId);
    const wrong = first.number === 99 ? 98 : first.number + 1;
    const denied = await app(device.state, ['approve', first.id, '--number', String(wrong)]);
    expect(denied.code, denied.stderr).toBe(0);
    expect(await poll(user, first.id)).toBe('denied');

    const second = await startPush(user, device.deviceId);
    const third = await startPush(user, device.deviceId);
    expect(await poll(user, second.id)).toBe('expired');
    expect(json(await app(device.state, ['list', '--json'])).map((c: { id: string }) => c.id)).toEqual([
      third.id,
    ]);
    expect((await app(device.state, ['deny', third.id])).code).toBe(0);
    expect(await poll(user, third.id)).toBe('denied');
  }, 180_000);

  it('refuses a replayed, expired or foreign decision (401) and a challenge not pending (409)', async () => {
    const { user, device } = await pushUser('Push replay');
    const other = await pushUser('Push other');
    const started = await startPush(user, device.deviceId);

    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const stranger = await exportJWK(privateKey);
    expectError(
      await answer(
        device,
        started.id,
        await decision(device, started.id, { number: started.number }, stranger),
      ),
      401,
    );
    expectError(
      await answer(
        device,
        started.id,
        await decision(device, started.id, { number: started.number }, other.device.key),
      ),
      401,
    );
    expectError(
      await answer(
        device,
        started.id,
        await decision(device, started.id, { number: started.number, iat: now() - 300, exp: now() - 240 }),
      ),
      401,
    );
    expectError(
      await answer(
        device,
        started.id,
        await decision(device, 'ver_0000000000aaaaaaaaaa', { number: started.number }),
      ),
      401,
    );
    expectError(await answer(device, started.id, 'not.a.jws'), 401);
    // Another device's JWT cannot answer this device's challenge.
    expectError(
      await answer(
        device,
        started.id,
        await decision(device, started.id, { number: started.number }),
        await deviceJwt(other.device),
      ),
      401,
    );
    expect(await poll(user, started.id)).toBe('pending');

    const jws = await decision(device, started.id, { number: started.number });
    const ok = await answer(device, started.id, jws);
    expect(ok.status, ok.text).toBe(200);
    expect(await poll(user, started.id)).toBe('approved');
    expectError(await answer(device, started.id, jws), 401);
    // A fresh decision on an answered challenge: other signed bytes than the replayed one (an iat one
    // second before its, whatever second this is: the same iat and exp would be the same payload).
    const { iat } = JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString());
    const fresh = await decision(device, started.id, { number: started.number, iat: iat - 1, exp: iat + 58 });
    expectError(await answer(device, started.id, fresh), 409);
  }, 180_000);

  it('authenticates the device by its JWT: expired, long-lived, unsigned or foreign → 401', async () => {
    const { device } = await pushUser('Push auth');
    const list = (jwt?: string) =>
      call('GET', '/api/push/challenges', {
        headers: jwt === undefined ? {} : { Authorization: `Bearer ${jwt}` },
      });
    expect((await list(await deviceJwt(device))).status).toBe(200);
    expectError(await list(), 401);
    expectError(await list(await deviceJwt(device, now() - 120)), 401);
    expectError(await list(await deviceJwt(device, now() + 3600)), 401);
    expectError(await list(await deviceJwt(device, now() + 120, 'dev_0000000000aaaaaaaaaa')), 401);
    const [h, p] = (await deviceJwt(device)).split('.');
    expectError(await list(`${h}.${p}.`), 401);
    expectError(await list('garbage'), 401);
  }, 120_000);

  it('names the bad field of an activation: a private key, another curve, a bad ticket', async () => {
    const user = await newUser('Push bad input');
    const enrolled = await call('POST', `/api/users/${user.id}/devices`, {
      token: user.token,
      body: { kind: 'push' },
    });
    const { ticket } = enrolled.body.activation;
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pub = await exportJWK(publicKey);
    const activate = (body: unknown) => call('POST', '/api/push/activations', { body });
    expectError(await activate({ ticket, public_key: await exportJWK(privateKey) }), 422, ['public_key.d']);
    expectError(await activate({ ticket, public_key: { ...pub, crv: 'P-384' } }), 422, ['public_key.crv']);
    expectError(await activate({ ticket, public_key: 'a key' }), 422, ['public_key']);
    const badTicket = await activate({ ticket: 'x'.repeat(5000), public_key: pub });
    expect(badTicket.status).toBeGreaterThanOrEqual(400);
    expect(badTicket.status).toBeLessThan(500);
    expect((await activate({ ticket: `${ticket}x`, public_key: pub })).status).toBeGreaterThanOrEqual(400);
    // Nothing half-written: the ticket still activates.
    const ok = await activate({ ticket, public_key: pub });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toEqual({ device_id: enrolled.body.id });
  }, 120_000);
});
