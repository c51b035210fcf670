// A push device's key, tokens and decisions, signed with jose as a device app would sign them.
import { CompactSign, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  newMatchNumber,
  parseDeviceKey,
  readDeviceTokenKid,
  verifyDecision,
  verifyDeviceToken,
} from '../../../lib/bank/push-keys.ts';
import { Invalid, Unauthenticated } from '../../../lib/domain/errors.ts';

const deviceId = 'dev_0123456789abcdefghij';
const verificationId = 'ver_0123456789abcdefghij';
const now = new Date('2026-11-28T03:00:00Z');
const t = Math.floor(now.getTime() / 1000);

async function device() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, publicJwk: jwk, key: parseDeviceKey(jwk) };
}
type Device = Awaited<ReturnType<typeof device>>;

const token = (d: Device, claims: { sub?: string; exp?: number; iat?: number } = {}, kid = deviceId) => {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid }).setSubject(claims.sub ?? deviceId);
  jwt.setIssuedAt(claims.iat ?? t);
  jwt.setExpirationTime(claims.exp ?? t + 120);
  return jwt.sign(d.privateKey);
};

const decision = (d: Device, payload: Record<string, unknown>, kid = deviceId) =>
  new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({
        sub: verificationId,
        iat: t,
        exp: t + 60,
        decision: 'approve',
        number: 42,
        ...payload,
      }),
    ),
  )
    .setProtectedHeader({ alg: 'ES256', kid })
    .sign(d.privateKey);

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(Invalid);
    return (err as Invalid).fields?.map((f) => f.field);
  }
  throw new Error('expected Invalid');
};

describe('parseDeviceKey', () => {
  it('keeps the public EC P-256 point of a JWK, dropping other members', async () => {
    const { publicJwk } = await device();
    expect(parseDeviceKey({ ...publicJwk, kid: 'mine', key_ops: ['verify'], ext: true })).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: publicJwk.x,
      y: publicJwk.y,
    });
  });

  it('refuses a private key, other curves and kinds, a point off the curve, and non-objects', async () => {
    const { privateKey, publicJwk } = await device();
    const privateJwk = await exportJWK(privateKey);
    expect(fieldsOf(() => parseDeviceKey(privateJwk))).toEqual(['public_key.d']);
    expect(fieldsOf(() => parseDeviceKey({ ...publicJwk, crv: 'P-384' }))).toEqual(['public_key.crv']);
    expect(fieldsOf(() => parseDeviceKey({ kty: 'RSA', n: 'AQAB', e: 'AQAB' }))).toContain('public_key.kty');
    expect(fieldsOf(() => parseDeviceKey({ ...publicJwk, x: 'short' }))).toEqual(['public_key.x']);
    const offCurve = { ...publicJwk, y: Buffer.alloc(32, 7).toString('base64url') };
    expect(fieldsOf(() => parseDeviceKey(offCurve))).toEqual(['public_key']);
    expect(fieldsOf(() => parseDeviceKey('a key'))).toEqual(['public_key']);
    expect(fieldsOf(() => parseDeviceKey([publicJwk]))).toEqual(['public_key']);
  });
});

describe('device tokens', () => {
  it('reads the device id a token claims, and refuses what is no JWT', async () => {
    const d = await device();
    expect(readDeviceTokenKid(await token(d))).toBe(deviceId);
    for (const bad of ['', 'abc', 'a.b.c', `${'x'.repeat(5000)}.a.b`])
      expect(() => readDeviceTokenKid(bad)).toThrow(Unauthenticated);
    const noKid = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).sign(d.privateKey);
    expect(() => readDeviceTokenKid(noKid)).toThrow(Unauthenticated);
  });

  it('accepts a token of this device, signed by its key, expiring within 5 minutes', async () => {
    const d = await device();
    await expect(verifyDeviceToken(await token(d), d.key, deviceId, now)).resolves.toBeUndefined();
    await expect(
      verifyDeviceToken(await token(d, { exp: t + 300 }), d.key, deviceId, now),
    ).resolves.toBeUndefined();
  });

  it('refuses another key, another device, a long-lived, expired or unbounded token, and other algorithms', async () => {
    const d = await device();
    const other = await device();
    const refused = async (jwt: string, key = d.key) =>
      expect(verifyDeviceToken(jwt, key, deviceId, now)).rejects.toBeInstanceOf(Unauthenticated);
    await refused(await token(other));
    await refused(await token(d), other.key);
    await refused(await token(d, {}, 'dev_another0000000000'));
    await refused(await token(d, { sub: 'dev_another0000000000' }));
    await refused(await token(d, { exp: t + 3600 }));
    await refused(await token(d, { exp: t - 120, iat: t - 300 }));
    const noExp = await new SignJWT({ sub: deviceId })
      .setProtectedHeader({ alg: 'ES256', kid: deviceId })
      .sign(d.privateKey);
    await refused(noExp);
    const hs = await new SignJWT({ sub: deviceId })
      .setProtectedHeader({ alg: 'HS256', kid: deviceId })
      .setExpirationTime(t + 60)
      .sign(new Uint8Array(32));
    await refused(hs);
    const [h, p] = (await token(d)).split('.');
    await refused(`${h}.${p}.`);
  });
});

describe('decisions', () => {
  it('answers the decision, the number typed, and a key that names this decision', async () => {
    const d = await device();
    const jws = await decision(d, {});
    const verified = await verifyDecision(jws, d.key, deviceId, verificationId, now);
    expect(verified).toEqual({ decision: 'approve', number: 42, replayKey: expect.any(String) });
    expect((await verifyDecision(jws, d.key, deviceId, verificationId, now)).replayKey).toBe(
      verified.replayKey,
    );
    const another = await verifyDecision(
      await decision(d, { iat: t + 1 }),
      d.key,
      deviceId,
      verificationId,
      now,
    );
    expect(another.replayKey).not.toBe(verified.replayKey);
  });

  it('keeps the replay key when the signature is re-encoded (ECDSA malleability)', async () => {
    const d = await device();
    const jws = await decision(d, {});
    const [h, p, s] = jws.split('.');
    const sig = Buffer.from(s, 'base64url');
    const n = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
    const high = (n - BigInt(`0x${sig.subarray(32).toString('hex')}`)).toString(16).padStart(64, '0');
    const twin = `${h}.${p}.${Buffer.concat([sig.subarray(0, 32), Buffer.from(high, 'hex')]).toString('base64url')}`;
    const first = await verifyDecision(jws, d.key, deviceId, verificationId, now);
    // WebCrypto accepts (r, n − s) as well: another signature string for the same decision.
    const second = await verifyDecision(twin, d.key, deviceId, verificationId, now);
    expect(twin).not.toBe(jws);
    expect(second.replayKey).toBe(first.replayKey);
  });

  it('reads a denial, with or without a number; an approval must carry one', async () => {
    const d = await device();
    expect(
      await verifyDecision(await decision(d, { decision: 'deny' }), d.key, deviceId, verificationId, now),
    ).toMatchObject({ decision: 'deny', number: 42 });
    expect(
      await verifyDecision(
        await decision(d, { decision: 'deny', number: undefined }),
        d.key,
        deviceId,
        verificationId,
        now,
      ),
    ).toMatchObject({ decision: 'deny', number: null });
    await expect(
      verifyDecision(await decision(d, { number: undefined }), d.key, deviceId, verificationId, now),
    ).rejects.toBeInstanceOf(Unauthenticated);
    // A wrong number is a decision (the caller denies), not a malformed one.
    expect(
      (await verifyDecision(await decision(d, { number: 7 }), d.key, deviceId, verificationId, now)).number,
    ).toBe(7);
  });

  it.each([
    ['another verification', { sub: 'ver_another000000000000' }],
    ['an expired decision', { iat: t - 200, exp: t - 140 }],
    ['a decision valid more than 60 s', { exp: t + 120 }],
    ['a decision issued in the future', { iat: t + 600, exp: t + 630 }],
    ['an unknown decision', { decision: 'maybe' }],
    ['a number that is no integer', { number: '42' }],
  ])('refuses %s', async (_, payload) => {
    const d = await device();
    await expect(
      verifyDecision(await decision(d, payload), d.key, deviceId, verificationId, now),
    ).rejects.toBeInstanceOf(Unauthenticated);
  });

  it("refuses another device's key or kid, a tampered payload, and what is no JWS", async () => {
    const d = await device();
    const other = await device();
    const refused = async (jws: string, key = d.key) =>
      expect(verifyDecision(jws, key, deviceId, verificationId, now)).rejects.toBeInstanceOf(Unauthenticated);
    await refused(await decision(other, {}));
    await refused(await decision(d, {}), other.key);
    await refused(await decision(d, {}, 'dev_another0000000000'));
    const [h, , s] = (await decision(d, {})).split('.');
    const tampered = Buffer.from(
      JSON.stringify({ sub: verificationId, iat: t, exp: t + 60, decision: 'approve', number: 43 }),
    ).toString('base64url');
    await refused(`${h}.${tampered}.${s}`);
    for (const junk of ['', 'x', 'a.b.c', 'a.b.c.d.e']) await refused(junk);
  });
});

describe('newMatchNumber', () => {
  it('is a two-digit number, 10 to 99, not always the same', () => {
    const seen = new Set(Array.from({ length: 200 }, newMatchNumber));
    for (const n of seen) expect(Number.isInteger(n) && n >= 10 && n <= 99).toBe(true);
    expect(seen.size).toBeGreaterThan(20);
  });
});
