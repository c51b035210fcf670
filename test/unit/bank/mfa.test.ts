import { describe, expect, it } from 'vitest';
import { totpCode } from '../../../lib/bank/totp.ts';
import {
  Conflict,
  Gone,
  Invalid,
  LimitReached,
  NotFound,
  StepUpRequired,
} from '../../../lib/domain/errors.ts';
import { bank } from './fixture.ts';

const sms = { userId: 'u1', kind: 'sms' as const, phone: '+15551234567' };

async function started(b: ReturnType<typeof bank>) {
  const { device } = await b.mfa.enroll(sms);
  const v = await b.mfa.startVerification('u1', device.id);
  const [sent] = await b.mfa.outbox('u1');
  return { device, v, code: sent.code };
}

describe('MfaService', () => {
  it('makes the first factor the default one', async () => {
    const b = bank();
    await b.mfa.enroll(sms);
    await b.mfa.enroll({ ...sms, kind: 'voice' });
    const devices = await b.mfa.listDevices('u1');
    expect(devices.map((d) => [d.kind, d.default]).sort()).toEqual([
      ['sms', true],
      ['voice', false],
    ]);
  });

  it('needs an E.164 phone number for an sms factor', async () => {
    await expect(bank().mfa.enroll({ ...sms, phone: '555' })).rejects.toMatchObject({
      fields: [{ field: 'phone' }],
    });
  });

  it('returns an otp secret and URI once, and never lists them', async () => {
    const b = bank();
    const enrolled = await b.mfa.enroll({ userId: 'u1', kind: 'otp' });
    expect(enrolled.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(JSON.stringify(await b.mfa.listDevices('u1'))).not.toContain(enrolled.secret);
  });

  it('sends an sms code through the sender and keeps only its hash on the verification', async () => {
    const b = bank();
    const { v, code } = await started(b);
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify([...b.tables.verifications.values()])).not.toContain(code);
    expect(v.status).toBe('pending');
  });

  it('refuses to start a verification of an unknown factor', async () => {
    await expect(bank().mfa.startVerification('u1', 'dev_00000000000000000000')).rejects.toBeInstanceOf(
      Invalid,
    );
  });

  it('approves the right code', async () => {
    const b = bank();
    const { v, code } = await started(b);
    expect(await b.mfa.verify('u1', v.id, { code }, b.log)).toEqual({ id: v.id, status: 'approved' });
  });

  it('counts a wrong code and says how many attempts are left', async () => {
    const b = bank();
    const { v, code } = await started(b);
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(b.mfa.verify('u1', v.id, { code: wrong }, b.log)).rejects.toMatchObject({
      details: { attempts_left: 4 },
    });
    expect(b.events).toEqual([{ event: 'verification_failed', userId: 'u1' }]);
  });

  it('locks a verification after five wrong codes', async () => {
    const b = bank();
    const { v, code } = await started(b);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) await b.mfa.verify('u1', v.id, { code: wrong }, b.log).catch(() => {});
    await expect(b.mfa.verify('u1', v.id, { code: wrong }, b.log)).rejects.toBeInstanceOf(LimitReached);
    await expect(b.mfa.verify('u1', v.id, { code }, b.log)).rejects.toBeInstanceOf(LimitReached);
  });

  it('refuses to approve twice', async () => {
    const b = bank();
    const { v, code } = await started(b);
    await b.mfa.verify('u1', v.id, { code }, b.log);
    await expect(b.mfa.verify('u1', v.id, { code }, b.log)).rejects.toBeInstanceOf(Conflict);
  });

  it('refuses an expired verification as gone', async () => {
    const b = bank();
    const { v, code } = await started(b);
    b.clock.advance(600_000);
    await expect(b.mfa.verify('u1', v.id, { code }, b.log)).rejects.toBeInstanceOf(Gone);
  });

  it('accepts a TOTP code once: the same time step again is a wrong code', async () => {
    const b = bank();
    const { device, secret } = await b.mfa.enroll({ userId: 'u1', kind: 'otp' });
    const now = Math.floor(b.clock.now() / 1000);
    const [first, second] = [
      await b.mfa.startVerification('u1', device.id),
      await b.mfa.startVerification('u1', device.id),
    ];
    const code = await totpCode(secret!, now);
    await b.mfa.verify('u1', first.id, { code }, b.log);
    await expect(b.mfa.verify('u1', second.id, { code }, b.log)).rejects.toBeInstanceOf(Invalid);
  });

  it('approves with a reusable mfa_token any number of times', async () => {
    const b = bank();
    const { device } = await b.mfa.enroll(sms);
    const { mfa_token } = await b.mfa.issueMfaToken('u1', { reusable: true }, b.log);
    for (let i = 0; i < 2; i += 1) {
      const v = await b.mfa.startVerification('u1', device.id);
      await expect(b.mfa.verify('u1', v.id, { mfa_token }, b.log)).resolves.toMatchObject({
        status: 'approved',
      });
    }
  });

  it("refuses another user's mfa_token", async () => {
    const b = bank();
    const { v } = await started(b);
    const { mfa_token } = await b.mfa.issueMfaToken('u2', {}, b.log);
    await expect(b.mfa.verify('u1', v.id, { mfa_token }, b.log)).rejects.toBeInstanceOf(Invalid);
  });

  it('deletes a factor only with a step-up', async () => {
    const b = bank();
    const { device } = await b.mfa.enroll(sms);
    await expect(b.mfa.deleteDevice('u1', device.id, undefined, b.log)).rejects.toBeInstanceOf(
      StepUpRequired,
    );
  });

  it('deletes a factor with an approved verification and logs it', async () => {
    const b = bank();
    const { device, v, code } = await started(b);
    await b.mfa.verify('u1', v.id, { code }, b.log);
    await b.mfa.deleteDevice('u1', device.id, v.id, b.log);
    expect(await b.mfa.listDevices('u1')).toEqual([]);
    expect(b.events.at(-1)).toEqual({ event: 'factor_deleted', userId: 'u1' });
  });

  it('says a verification whose factor was deleted is gone', async () => {
    const b = bank();
    const { device, v, code } = await started(b);
    const other = await b.mfa.startVerification('u1', device.id);
    await b.mfa.verify('u1', v.id, { code }, b.log);
    await b.mfa.deleteDevice('u1', device.id, v.id, b.log);
    const sent = (await b.mfa.outbox('u1')).find((e) => e.verificationId === other.id)!;
    await expect(b.mfa.verify('u1', other.id, { code: sent.code }, b.log)).rejects.toBeInstanceOf(Gone);
  });

  it('treats an unknown verification as not found', async () => {
    await expect(
      bank().mfa.verify('u1', 'ver_00000000000000000000', { code: '123456' }, () => {}),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
