import { describe, expect, it } from 'vitest';
import { KeyInUse } from '../../../lib/domain/errors.ts';
import { requestFingerprint } from '../../../lib/bank/idempotency.ts';
import { bank, newTransfer } from './fixture.ts';

describe('IdempotencyKeys', () => {
  it('gives the same fingerprint to the same JSON body in any key order', () => {
    expect(requestFingerprint('POST', '/p', { a: 1, b: [2] })).toBe(
      requestFingerprint('POST', '/p', { b: [2], a: 1 }),
    );
  });

  it('reserves a fresh key for the caller', async () => {
    expect(await bank().keys.reserve('u1', 'key', 'fp')).toHaveProperty('reservation');
  });

  it('replays the response stored by the request that completed the key', async () => {
    const b = bank();
    const held = await b.keys.reserve('u1', 'key', 'fp');
    if (!('reservation' in held)) throw new Error('not reserved');
    const response = { status: 201, body: { id: 'x' } };
    await b.transfers.create('u1', newTransfer, { complete: () => held.reservation.completion(response) });
    expect(await b.keys.reserve('u1', 'key', 'fp')).toEqual({ replay: response });
  });

  it('refuses the key for a different request', async () => {
    const b = bank();
    await b.keys.reserve('u1', 'key', 'fp');
    await expect(b.keys.reserve('u1', 'key', 'other')).rejects.toBeInstanceOf(KeyInUse);
  });

  it('refuses the key while its first request is in flight', async () => {
    const b = bank();
    await b.keys.reserve('u1', 'key', 'fp');
    await expect(b.keys.reserve('u1', 'key', 'fp')).rejects.toThrow(/in progress/);
  });

  it('keeps keys per caller', async () => {
    const b = bank();
    await b.keys.reserve('u1', 'key', 'fp');
    expect(await b.keys.reserve('u2', 'key', 'fp')).toHaveProperty('reservation');
  });

  it('frees a released key for a retry', async () => {
    const b = bank();
    const held = await b.keys.reserve('u1', 'key', 'fp');
    if ('reservation' in held) await held.reservation.release();
    expect(await b.keys.reserve('u1', 'key', 'fp')).toHaveProperty('reservation');
  });

  it('lets another request take over a key whose lease ran out', async () => {
    const b = bank();
    await b.keys.reserve('u1', 'key', 'fp');
    b.clock.advance(31_000);
    expect(await b.keys.reserve('u1', 'key', 'fp')).toHaveProperty('reservation');
  });
});
