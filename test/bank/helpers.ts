// Shared helpers of the Bank tests: documented HTTP calls, DynamoDB request counts, factors.
import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { fullMfa, fullMfaWithTotp } from '../../lib/bank/wiring.ts';
import type { FactorKind } from '../../lib/bank/model.ts';
import { http, type HttpResponse } from '../support/http.ts';
import { expectDocumented } from '../support/openapi.ts';
import type { TestUser } from '../support/identity.ts';

export const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;

/** An HTTP call whose response must match openapi/bank.json. */
export async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<HttpResponse> {
  const res = await http(method, path, opts);
  expectDocumented('bank', method, path, res);
  return res;
}

/** Asserts the DynamoDB requests of a call (local runner only). */
export function expectRequests(res: HttpResponse, max: number): void {
  if (local)
    expect(
      Number(res.headers.get('x-local-dynamo-requests')),
      `DynamoDB requests of ${res.status}`,
    ).toBeLessThanOrEqual(max);
}

/** A 4xx REST error body naming exactly these fields (in any order). */
export function expectError(res: HttpResponse, status: number, fields: string[] = []): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({
    code: expect.any(Number),
    message: expect.any(String),
    description: expect.any(String),
  });
  if (fields.length)
    expect((res.body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(
      [...fields].sort(),
    );
}

/**
 * A phone number no other test sends to: codes to one destination are limited across all users
 * (docs/bank.md, "Abuse limits"), and the whole run shares DynamoDB Local.
 */
export const uniquePhone = (prefix = '+1555') =>
  `${prefix}${String(randomInt(10 ** (12 - prefix.length))).padStart(12 - prefix.length, '0')}`;
export const uniqueEmail = () => `me-${randomUUID().slice(0, 8)}@example.test`;

export const enroll = (user: TestUser, kind: FactorKind, extra: { phone?: string; email?: string } = {}) =>
  fullMfaWithTotp().enroll({
    userId: user.id,
    kind,
    phone: kind === 'sms' || kind === 'voice' ? (extra.phone ?? uniquePhone()) : extra.phone,
    email: kind === 'email' ? (extra.email ?? uniqueEmail()) : extra.email,
  });

/** The code the outbox holds for a verification. */
export async function outboxCode(userId: string, verificationId: string): Promise<string> {
  const entry = (await fullMfa().outbox(userId)).find((e) => e.verificationId === verificationId);
  expect(entry, `outbox entry of ${verificationId}`).toBeDefined();
  return entry!.code;
}

/** Starts and approves an sms verification: a step-up for X-MFA-Verification. */
export async function approvedVerification(user: TestUser): Promise<string> {
  const { device } = await enroll(user, 'sms');
  const started = await call('POST', `/api/users/${user.id}/verifications`, {
    token: user.token,
    body: { device_id: device.id },
  });
  const code = await outboxCode(user.id, started.body.id);
  const verified = await call('POST', `/api/users/${user.id}/verifications/${started.body.id}`, {
    token: user.token,
    body: { code },
  });
  expect(verified.status).toBe(200);
  return started.body.id;
}
