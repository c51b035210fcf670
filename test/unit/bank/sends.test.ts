// The send limits of sms, voice and e-mail codes (docs/bank.md, "Abuse limits"), over the in-memory
// adapters and a fixed clock: per user, per destination across users, per stack; e-mail apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../infra/local/template.ts';
import { sendsRefusedLine } from '../../../lib/bank/adapters/emf-metrics.ts';
import { MemoryEnrolmentStore } from '../../../lib/bank/adapters/memory-enrolment.ts';
import { MemoryFactorStore } from '../../../lib/bank/adapters/memory-factors.ts';
import { MemoryBankTables } from '../../../lib/bank/adapters/memory-tables.ts';
import { outboxSender } from '../../../lib/bank/adapters/outbox-sender.ts';
import { FactorEnrolment, type EnrolRequest } from '../../../lib/bank/enrolment.ts';
import { MfaService, type SecurityEvent } from '../../../lib/bank/mfa.ts';
import type { PasskeyConfig } from '../../../lib/bank/passkeys.ts';
import { otplibTotp } from '../../../lib/bank/totp.ts';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { START_MS } from './fixture.ts';

const KEY = async () => 'unit-test-key';
const passkeys = (): PasskeyConfig => ({ rpId: 'localhost', rpName: 'x', origins: ['http://localhost'] });

function world(stackMax = 1000) {
  const clock = new FixedClock(START_MS);
  const tables = new MemoryBankTables();
  const store = new MemoryEnrolmentStore(tables);
  const factors = new MemoryFactorStore(tables);
  const events: Array<{ event: SecurityEvent; userId: string; details?: Record<string, unknown> }> = [];
  const log = (event: SecurityEvent, userId: string, details?: Record<string, unknown>) => {
    events.push({ event, userId, details });
  };
  const enrolment = new FactorEnrolment({
    store: store,
    sender: () => outboxSender,
    clock,
    secretKey: KEY,
    totp: otplibTotp,
    passkeyConfig: passkeys,
    allowedCallingCodes: () => [],
    stackSendLimit: () => stackMax,
  });
  const mfa = new MfaService({
    store: factors,
    sender: () => outboxSender,
    clock,
    secretKey: KEY,
    totp: otplibTotp,
    passkeyConfig: passkeys,
    allowedCallingCodes: () => [],
    stackSendLimit: () => stackMax,
  });
  const enrol = (userId: string, req: EnrolRequest, stepUp?: string) =>
    enrolment.enroll(userId, req, stepUp, log);
  /** An approved verification of the user's active otp factor `deviceId`, through a reusable mfa_token. */
  const stepUp = async (userId: string, deviceId: string) => {
    const { mfa_token } = await mfa.issueMfaToken(userId, { reusable: true }, log);
    const v = await mfa.startVerification(userId, deviceId, undefined, log);
    await mfa.verify(userId, v.id, { mfa_token }, log);
    return v.id;
  };
  return { clock, tables, store, factors, events, enrol, mfa, stepUp, log };
}

let n = 0;
const phone = () => `+1555${String(1_000_000 + (n += 1)).slice(-7)}`;
const sms = (phone_number = phone()): EnrolRequest => ({ kind: 'sms', phone_number });

describe('send limits per user', () => {
  it('3 code-sending enrolments an hour without an active factor; e-mail apart; other kinds unlimited', async () => {
    const w = world();
    for (let i = 0; i < 3; i += 1)
      await w.enrol('u1', i === 1 ? { kind: 'voice', phone_number: phone() } : sms());
    const refused = w.enrol('u1', sms());
    await expect(refused).rejects.toMatchObject({
      kind: 'limit_reached',
      retryAfterSeconds: expect.any(Number),
    });
    expect((await refused.catch((e) => e)).retryAfterSeconds).toBeGreaterThan(0);
    expect(w.events.filter((e) => e.event === 'code_send_limited')).toHaveLength(1);
    expect(w.events.at(-1)?.details).toMatchObject({ limit: 'enrolmentSends', subject: 'sms_voice', max: 3 });
    // Nothing stored, nothing sent for the refused one.
    expect((await w.store.listDevices('u1')).length).toBe(3);
    expect(w.tables.outbox.size).toBe(3);
    // E-mail is counted apart; otp sends nothing and counts nothing; another user is not affected.
    for (let i = 0; i < 3; i += 1) await w.enrol('u1', { kind: 'email', email: `a${i}@example.test` });
    await expect(w.enrol('u1', { kind: 'email', email: 'a9@example.test' })).rejects.toMatchObject({
      kind: 'limit_reached',
    });
    await w.enrol('u1', { kind: 'otp' });
    await w.enrol('u2', sms());
    // Two windows later the user may send again.
    w.clock.advance(2 * 3_600_000);
    await w.enrol('u1', sms());
  });

  it('5 an hour once the user has an active factor (with the step-up)', async () => {
    const w = world();
    const otp = await Promise.all(
      [1, 2].map(async () => (await w.mfa.enroll({ userId: 'u1', kind: 'otp' })).device.id),
    );
    for (let i = 0; i < 5; i += 1) await w.enrol('u1', sms(), await w.stepUp('u1', otp[i % 2]));
    await expect(w.enrol('u1', sms(), await w.stepUp('u1', otp[1]))).rejects.toMatchObject({
      kind: 'limit_reached',
    });
    expect(w.events.filter((e) => e.event === 'code_send_limited').at(-1)?.details).toMatchObject({
      limit: 'enrolmentSendsWithFactor',
      max: 5,
    });
  });
});

describe('send limits per destination, across users', () => {
  it('5 codes an hour to one number (enrolments and verifications), its counter named by an HMAC', async () => {
    const w = world();
    const number = phone();
    const { device } = await w.mfa.enroll({ userId: 'owner', kind: 'sms', phone: number });
    for (let i = 0; i < 3; i += 1) await w.enrol(`user-${i}`, sms(number));
    await w.mfa.startVerification('owner', device.id, undefined, w.log);
    await w.mfa.startVerification('owner', device.id, undefined, w.log);
    const outbox = w.tables.outbox.size;
    await expect(w.mfa.startVerification('owner', device.id, undefined, w.log)).rejects.toMatchObject({
      kind: 'limit_reached',
    });
    await expect(w.enrol('user-9', sms(number))).rejects.toMatchObject({ kind: 'limit_reached' });
    expect(w.tables.outbox.size).toBe(outbox);
    expect(w.events.filter((e) => e.event === 'code_send_limited').map((e) => e.details?.limit)).toEqual([
      'destinationSends',
      'destinationSends',
    ]);
    // The number is nowhere in the counters; another number is not affected.
    expect(JSON.stringify([...w.tables.limits.keys()])).not.toContain(number.slice(1));
    await w.enrol('user-9', sms());
  });

  it("a refused send gives back what it counted: the user's enrolments are not used up", async () => {
    const w = world();
    const number = phone();
    for (let i = 0; i < 5; i += 1) await w.enrol(`user-${i}`, sms(number));
    for (let i = 0; i < 3; i += 1)
      await expect(w.enrol('u1', sms(number))).rejects.toMatchObject({ kind: 'limit_reached' });
    for (let i = 0; i < 3; i += 1) await w.enrol('u1', sms());
  });
});

describe('send limits per stack', () => {
  it('past SMS_VOICE_HOURLY_LIMIT sends: 503 (unavailable) with Retry-After for everyone; e-mail apart', async () => {
    const w = world(4);
    for (let i = 0; i < 4; i += 1) await w.enrol(`user-${i}`, sms());
    const refused = await w.enrol('user-9', sms()).catch((e) => e);
    expect(refused).toMatchObject({ kind: 'unavailable' });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(w.events.at(-1)).toMatchObject({
      event: 'code_send_limited',
      userId: 'user-9',
      details: { limit: 'stackSends', max: 4 },
    });
    const { device } = await w.mfa.enroll({ userId: 'owner', kind: 'voice', phone: phone() });
    await expect(w.mfa.startVerification('owner', device.id, undefined, w.log)).rejects.toMatchObject({
      kind: 'unavailable',
    });
    // E-mail has its own count; the refused user's own count was given back.
    await w.enrol('user-9', { kind: 'email', email: 'me@example.test' });
    w.clock.advance(2 * 3_600_000);
    for (let i = 0; i < 3; i += 1) await w.enrol('user-9', sms());
  });
});

describe('the alarm of the stack limit', () => {
  it('watches the metric the refusals emit (namespace, name, dimension)', () => {
    process.env.TABLE_NAME = 'unit-table';
    const line = JSON.parse(sendsRefusedLine('sms_voice'));
    delete process.env.TABLE_NAME;
    const [directive] = line._aws.CloudWatchMetrics;
    const template = readFileSync(join(ROOT, 'template.yaml'), 'utf8');
    const alarm = template.slice(template.indexOf('  BankCodeSendsRefusedAlarm:'));
    expect(alarm).toMatch(new RegExp(`Namespace: ${directive.Namespace}\\n`));
    expect(alarm).toMatch(new RegExp(`MetricName: ${directive.Metrics[0].Name}\\n`));
    expect(directive.Dimensions).toEqual([['Table']]);
    expect(alarm).toMatch(/Dimensions: \[\{ Name: Table, Value: !Ref Table \}\]/);
    expect(line).toMatchObject({ CodeSendsRefused: 1, Channel: 'sms_voice', Table: 'unit-table' });
  });
});
