// TOTP (RFC 6238) through otplib: 30-second steps, SHA-1, 6 digits by default; verification accepts
// the current step and one on either side, and only steps after the factor's last used one (replay).
// otplib compares in constant time. Its parts are used with the node:crypto plugin rather than the
// `otplib` bundle, whose pure-JS hashes (@noble/hashes) add 13 KiB and ~8 ms to a cold start.
import { generateSecret, stringToBytes } from '@otplib/core';
import { base32 } from '@otplib/plugin-base32-scure';
import { crypto as nodeCrypto } from '@otplib/plugin-crypto-node';
import { generate, verify } from '@otplib/totp';
import { generateTOTP } from '@otplib/uri';
import type { Totp } from './ports.ts';

export const TOTP_PERIOD = 30;

export interface TotpOptions {
  digits?: 6 | 8;
  algorithm?: 'sha1' | 'sha256' | 'sha512';
}

/** A secret is base32 (as authenticator apps take it) or raw bytes (as the RFC's vectors give it). */
export type TotpSecret = string | { ascii: string };
const secretOf = (s: TotpSecret) => (typeof s === 'string' ? s : stringToBytes(s.ascii));

export const newTotpSecret = () => generateSecret({ crypto: nodeCrypto, base32, length: 20 });

export const totpUri = (secret: string, account: string) =>
  generateTOTP({
    issuer: 'tri-api bank',
    label: account,
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: TOTP_PERIOD,
  });

export const totpCode = (secret: TotpSecret, epochSeconds: number, opts: TotpOptions = {}) =>
  generate({
    crypto: nodeCrypto,
    base32,
    secret: secretOf(secret),
    epoch: epochSeconds,
    period: TOTP_PERIOD,
    digits: opts.digits ?? 6,
    algorithm: opts.algorithm ?? 'sha1',
  });

/**
 * The time step the code belongs to, or undefined when it is wrong, out of the window or not after
 * `afterStep`.
 */
export async function verifyTotp(
  secret: TotpSecret,
  code: string,
  epochSeconds: number,
  opts: TotpOptions & { afterStep?: number } = {},
): Promise<number | undefined> {
  const result = await verify({
    crypto: nodeCrypto,
    base32,
    secret: secretOf(secret),
    token: code,
    epoch: epochSeconds,
    period: TOTP_PERIOD,
    epochTolerance: TOTP_PERIOD,
    digits: opts.digits ?? 6,
    algorithm: opts.algorithm ?? 'sha1',
    afterTimeStep: opts.afterStep,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** The Totp port over otplib (lib/bank/wiring.ts hands it to the functions that need it). */
export const otplibTotp: Totp = {
  newSecret: newTotpSecret,
  uri: totpUri,
  verify: (secret, code, epochSeconds) => verifyTotp(secret, code, epochSeconds),
};
